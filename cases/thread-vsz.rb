# thread-vsz.rb: the report's own program beside cases/thread-vsz.c.
# Behaviour: 1,000 sleeping threads: VSZ 4 GB with glibc arenas, 2.5 GB with
# jemalloc
# (the mechanism is explained in the model's header).
#
# Source: seeds/001_363ce97aa11a7645.txt, a blog post (2015, Ruby 2.x, 4
# CPUs), the one-liner
#   % ruby -e 'system "ps -o vsz -p #$$"; 1000.times{Thread.new{sleep}}; system "ps -o vsz -p #$$"'
# The report printed: VSZ 46392 / VSZ 4151572 (KB), and with
# LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.1: VSZ 55672 / VSZ
# 2509080; `time ruby -e '1000.times{Thread.new{sleep}}'` 0.10s user 0.06s
# system 0.132 total, with jemalloc 0.23s user 0.81s system 0.941 total (the
# runner's wall_ms / user_ms / sys_ms of this program are those).
#
# Changed from the report's text, and why:
#  - a file instead of -e (the same code; `#$$` is the pid interpolated).
#  - 1000 threads unless --param threads=N (the model's; quick 250).
#  - Memrepro.checkpoint("start") and ("created") right before each
#    `system "ps ..."`, the model's checkpoints (the figure is vsz_kb).  By
#    hand they do nothing.
#  - the model's arena_max is glibc's MALLOC_ARENA_MAX (the env lines
#    below), which reaches the interpreter's glibc as it does the model's.
#
# memrepro: params threads
# memrepro: ignores stack_kb vm_stack_kb
# memrepro: env arena_max=1 MALLOC_ARENA_MAX=1
# memrepro: env arena_max=2 MALLOC_ARENA_MAX=2
# memrepro: env arena_max=4 MALLOC_ARENA_MAX=4
# memrepro: env arena_max=8 MALLOC_ARENA_MAX=8
require_relative "../lib/memrepro"
THREADS = Integer(Memrepro.param("threads", 1000))

Memrepro.checkpoint("start"); system "ps -o vsz -p #$$"; THREADS.times{Thread.new{sleep}}; Memrepro.checkpoint("created"); system "ps -o vsz -p #$$"
