#!/usr/bin/env ruby
# fiber-stacks.rb: the report's own program beside cases/fiber-stacks.c.
# Behaviour: Freed fiber stacks: MADV_FREE keeps RSS, MADV_DONTNEED returns it
# (the mechanism is explained in the model's header).
#
# Source: seeds/000_42f33d63eb876075.txt, Ruby Misc #19122 (Samuel Williams's
# comment of 2025, [ruby-core:121238]): the "test script" of socketry/memory-leak,
# run as `RUBY_SHARED_FIBER_POOL_FREE_STACKS=N bundle exec test.rb`, on a
# Ruby with PR #7855 (the variable's value picks the madvise advice: 3.3+).
# The report printed, for one iteration:
#   FREE_STACKS=16: Memory usage: 150.82 MB / Clearing fibers and garbage
#                   collecting... / Memory usage: 150.82 MB
#   FREE_STACKS=8:  Memory usage: 151.63 MB / ... / Memory usage: 73.63 MB
# (MB as printed: the size divided by 1024 three times, so MiB), and with
# output to /dev/null, `time` of the whole run: 8: 841.07 ms (user 373.88,
# sys 463.22); 16: 582.77 ms (357.66 / 220.90); 0: 444.61 ms (312.92 / 128.99).
#
# Changed from the report's text, and why:
#  - `require "memory/leak/system"` (a gem, with the console gem: hence
#    bundle exec) is replaced by the gem's own memory_usage, inlined below
#    (socketry/memory-leak lib/memory/leak/system.rb: RSS in bytes from
#    `ps -o rss=`), so the program needs no gem and runs with --disable-gems.
#  - `require "fiber"`: Ruby 2.7 needs it for Fiber.current (core from 3.1 on,
#    where the require is harmless).
#  - 10 iterations of 10,000 fibers unless --param iterations=N / fibers=N
#    (the model's; its quick 4,000 fibers makes a run a few seconds).
#  - Memrepro.checkpoint("created") and ("cleared") right before each
#    print_memory_usage: created#i and cleared#i of iteration i, the model's
#    checkpoints.  By hand they do nothing.
#  - the model's madvise parameter is the report's variable (the env lines
#    below): dontneed = 8, free = 16 (the default on Linux), none = 0.  Its
#    meaning depends on the version: 3.3 takes the advice from the value,
#    2.7 reads any non-zero value as MADV_FREE, 3.1 never advises.
#
# memrepro: params fibers iterations
# memrepro: ignores vm_stack_kb machine_stack_kb frame_kb
# memrepro: env madvise=dontneed RUBY_SHARED_FIBER_POOL_FREE_STACKS=8
# memrepro: env madvise=free RUBY_SHARED_FIBER_POOL_FREE_STACKS=16
# memrepro: env madvise=none RUBY_SHARED_FIBER_POOL_FREE_STACKS=0

require "fiber"
require_relative "../lib/memrepro"
FIBERS = Integer(Memrepro.param("fibers", 10_000))
ITERATIONS = Integer(Memrepro.param("iterations", 10))

# require "memory/leak/system", inlined:
module Memory; module Leak; module System
  def self.memory_usage(process_id)
    IO.popen(["ps", "-o", "rss=", process_id.to_s]) do |io|
      return io.read.to_i * 1024
    end
  end
end; end; end

def print_memory_usage
  size = Memory::Leak::System.memory_usage(Process.pid)
  units = %w(B KB MB GB TB)
  unit = 0
  
  while size > 1024 && unit < units.size
    size /= 1024.0
    unit += 1
  end
  
  puts "Memory usage: %.2f %s" % [size, units[unit]]
end

puts "PID: #{Process.pid}"

ITERATIONS.times do |i|
  puts "Iteration: #{i}"
  
  # Create 10,000 fibers:
  fibers = FIBERS.times.map do
    Fiber.new do
      Fiber.yield Fiber.current
    end.resume
  end

  # Print memory usage:
  Memrepro.checkpoint("created")
  print_memory_usage

  puts "Clearing fibers and garbage collecting..."

  # Clear fibers:
  fibers.clear
  GC.start

  # Print memory usage:
  Memrepro.checkpoint("cleared")
  print_memory_usage
end
