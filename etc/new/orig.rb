# @NAME@.rb: the report's own program beside cases/@NAME@.c (docs/originals.md).
# Behaviour: ONE LINE, with the report's figures (the mechanism is
# explained in the model's header).
#
# Source: WHERE (a seed, OWNER/REPO#N or an https:// address), its date and
# Ruby version.  The report printed:
#   "THE REPORT'S OWN WORDS AND NUMBERS"
#
# Changed from the report's text, and why:
#  - Memrepro.checkpoint("start") first, Memrepro.checkpoint("filled") right
#    before the print whose figure the report gave.  By hand they do nothing.
#  - its size from --param mb=N (the model's parameter; the runner passes
#    the config's value).
#
# memrepro: params mb
require_relative "../lib/memrepro"
Memrepro.checkpoint("start")
mb = Integer(Memrepro.param("mb", 64))
kept = "x" * (mb << 20) # written: every page resident
Memrepro.checkpoint("filled")
rss = File.read("/proc/self/status")[/^VmRSS:\s+(\d+)/, 1].to_i
puts format("RSS: %.1f MiB (%d MiB kept)", rss / 1024.0, kept.bytesize >> 20)
