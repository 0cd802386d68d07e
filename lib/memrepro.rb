# memrepro.rb: checkpoints and parameters for a Ruby original
# (docs/originals.md; the C cases' lib/mr_ckpt.c does the same).
#
#   require_relative "../lib/memrepro"
#   Memrepro.checkpoint("created")        # before the report's print
#   fibers = Integer(Memrepro.param("fibers", 10_000))
#
# Under the runner, MEMREPRO_CKPT_FD names the write end of the record pipe
# and MEMREPRO_ACK_FD the read end of the ack pipe, both blocking.  A record
# is one line, "ckpt\t<name>\t<seq>\n", written with one write(2); then the
# program blocks on a 1-byte read of the ack while the runner measures it
# (rss, vsz, rusage, faults from /proc/<pid>, smaps_rollup, the tree).  EOF
# or an error on either pipe means the runner is gone: we stop sending and
# the program carries on.  Run by hand (no variables) checkpoint does nothing
# and the program prints its figures as the report did.
#
# Nothing here raises into the program: a bad variable or name is said on
# stderr and the checkpoint is dropped.  Ruby >= 2.7 (the oldest runtime).
module Memrepro
  NAME_RE = /\A[a-z0-9_-]{1,63}\z/ # a model's checkpoint names (lib/mr_schema.h)

  @seen = Hash.new(0) # occurrences per name, for seq
  @ckpt = nil         # records go here; nil: by hand, or the runner is gone
  @ack = nil          # one byte back per record
  @pid = Process.pid  # a forked child's checkpoints are not sent
  @params = {}        # --param NAME=VALUE taken off ARGV

  def self.say(msg)
    $stderr.syswrite("memrepro: #{msg}\n")
  rescue StandardError
    nil # no stderr: nothing to do
  end

  # The fd in variable var: nil when unset, false when not a decimal fd.
  def self.env_fd(var, value)
    return nil if value.nil?
    return Integer(value, 10) if value =~ /\A[0-9]{1,9}\z/
    say("#{var} is not a file descriptor number: #{value}; checkpoints are off")
    false
  end

  def self.gone
    @ckpt = nil
    @ack = nil
  end

  def self.init
    # system/spawn/fork+exec children see no variables naming fds they do
    # not have...
    c = env_fd("MEMREPRO_CKPT_FD", ENV.delete("MEMREPRO_CKPT_FD"))
    a = env_fd("MEMREPRO_ACK_FD", ENV.delete("MEMREPRO_ACK_FD"))
    if c && a
      @ckpt = IO.for_fd(c, "w", autoclose: false)
      @ack = IO.for_fd(a, "r", autoclose: false)
      # ...nor the fds: inherited fds are not close-on-exec, and a
      # `system "ps"` child holding the record pipe would keep it open.
      @ckpt.close_on_exec = true
      @ack.close_on_exec = true
    elsif c.nil? != a.nil? && c != false && a != false
      say("MEMREPRO_CKPT_FD and MEMREPRO_ACK_FD go together; only one is set; checkpoints are off")
    end
  rescue StandardError # EBADF: an fd that is not open, as a gone runner
    gone
  end

  # --param NAME=VALUE and --param=NAME=VALUE, removed from ARGV so that the
  # program sees its own arguments only.  The last one given wins.
  def self.take_params
    rest = []
    i = 0
    while i < ARGV.length
      a = ARGV[i]
      kv = nil
      if a == "--param" && i + 1 < ARGV.length
        kv = ARGV[i + 1]
        i += 1
      elsif a.start_with?("--param=")
        kv = a[8..-1]
      else
        rest << a
      end
      if kv
        k, v = kv.split("=", 2)
        if v.nil? || k.empty?
          say("--param wants NAME=VALUE, not #{kv.inspect}; ignored")
        else
          @params[k] = v
        end
      end
      i += 1
    end
    ARGV.replace(rest)
  rescue StandardError
    nil
  end

  # Record checkpoint name and wait until the runner has measured us.
  def self.checkpoint(name)
    name = name.to_s
    unless name =~ NAME_RE
      say("checkpoint name is not [a-z0-9_-]{1,63}: #{name}; dropped")
      return
    end
    seq = (@seen[name] += 1)
    return if @ckpt.nil? || Process.pid != @pid
    rec = "ckpt\t#{name}\t#{seq}\n"
    # One write(2), past Ruby's buffer.  Ruby ignores SIGPIPE: a gone
    # runner is Errno::EPIPE here.
    return gone if @ckpt.syswrite(rec) != rec.bytesize
    # A blocking read of one byte (Ruby retries EINTR; other threads run
    # meanwhile, as they do while a C case waits).  EOF: EOFError.
    gone if @ack.sysread(1).bytesize != 1
  rescue StandardError # EOFError, Errno::EPIPE, Errno::EBADF, IOError
    gone
  end

  # The value of --param name=VALUE as a string; default when absent.
  def self.param(name, default)
    @params.fetch(name.to_s, default)
  end

  init
  take_params
end
