# fork-blowup.rb: the report's own program beside cases/fork-blowup.c.
# Behaviour: 1,000 threads then 10 sleeping forked children: +192 MB glibc, +2 GB
# jemalloc 3
# (the mechanism is explained in the model's header).
#
# Source: seeds/001_363ce97aa11a7645.txt, a blog post (2015, Ruby 2.x), the
# one-liner
#   % ruby -e 'system "free"; 1000.times{Thread.new{sleep}}; 10.times{fork{sleep}}; sleep 1; system "free"'
# The report printed free(1) twice (KB, machine-wide): used 2053828 ->
# 2246508 ("+192MB") with glibc, 2084772 -> 4041740 ("2GB") with
# LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.1 (jemalloc 3).
#
# Changed from the report's text, and why:
#  - a file instead of -e (the same code).
#  - 1000 threads, 10 children and `sleep 1` unless --param threads=N,
#    children=N, settle_ms=N (the model's; quick 250 threads and no sleep).
#  - Memrepro.checkpoint("start") before the first `system "free"`,
#    ("threads") after the threads and before the forks (not printed by the
#    report; the model's), ("forked") before the second `system "free"`.
#    free is machine-wide; the runner's tree figures (tree_pss_kb, ...) are
#    what the model's claims compare.  By hand they do nothing.
#  - none of the model's `child` actions but `none` is the report's, so the
#    program takes no parameter child.
#
# The children sleep forever, as the report's did: under the runner the run
# ends at this program's exit and the runner ends the rest of its tree; by
# hand, kill them yourself (they are in the script's process group).
#
# memrepro: params threads children settle_ms
# memrepro: ignores heap_mb stack_kb vm_stack_kb
require_relative "../lib/memrepro"
THREADS = Integer(Memrepro.param("threads", 1000))
CHILDREN = Integer(Memrepro.param("children", 10))
SETTLE = Integer(Memrepro.param("settle_ms", 1000)) / 1000.0

Memrepro.checkpoint("start"); system "free"; THREADS.times{Thread.new{sleep}}; Memrepro.checkpoint("threads"); CHILDREN.times{fork{sleep}}; sleep SETTLE; Memrepro.checkpoint("forked"); system "free"
