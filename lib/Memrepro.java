// Memrepro.java: checkpoints and parameters for a Java original
// (docs/originals.md; lib/memrepro.py and the C cases' lib/mr_ckpt.c do
// the same).
//
//   public static void main(String[] argv) throws Exception {
//       String[] args = Memrepro.init(argv);     // --param NAME=V taken off
//       int n = Integer.parseInt(Memrepro.param("threads", "104"));
//       ...
//       Memrepro.checkpoint("started");          // before the report's print
//
// Built once with `javac --release 11` into build/lib/Memrepro.class; the
// runner starts an original as `java --class-path <build/lib> Case.java`
// (the source launcher of Java 11 and later, whose compiler, jdk.compiler,
// Debian's headless JRE carries).
//
// Under the runner, MEMREPRO_CKPT_FD names the write end of the record pipe
// and MEMREPRO_ACK_FD the read end of the ack pipe, both blocking.  Java
// cannot take an inherited fd number as a stream, so the helper opens
// /proc/self/fd/N: on a pipe that is a new open file of the same pipe.  A
// pipe opened so is opened as a FIFO is: the open waits for the other end
// while nobody holds it, so a runner gone before the program started would
// hang it; the opens run in a daemon thread given 5 s, after which the
// checkpoints are off.  A record is one line, "ckpt\t<name>\t<seq>\n",
// written with one write(2) (FileOutputStream.write of a short array);
// then the program blocks on a 1-byte read of the ack while the runner
// measures it.  EOF or an IOException on either pipe (the JVM ignores
// SIGPIPE: a gone runner is "Broken pipe" here) means the runner is gone:
// we stop sending and the program carries on.  Run by hand (no variables)
// checkpoint does nothing and the program prints its figures as the report
// did.
//
// Hygiene: Java cannot unset its own environment, so a child started with
// ProcessBuilder sees both variables, but none of the fds: the JDK closes
// every fd above 2 in the child before exec.  Java does not fork without
// exec.  Nothing here throws into the program: a bad variable or name is
// said on stderr and the checkpoint is dropped.  Java 11 and later.
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public final class Memrepro {
    private static final int NAME_MAX = 63; // a model's checkpoint names (lib/mr_schema.h)
    private static final long OPEN_MS = 5000;

    private static final Map<String, Integer> seen = new HashMap<>(); // per name, for seq
    private static final Map<String, String> params = new HashMap<>(); // --param NAME=VALUE
    private static FileOutputStream ckpt; // records; null: by hand, or the runner is gone
    private static FileInputStream ack;   // one byte back per record
    private static boolean started;

    private Memrepro() {
    }

    private static void say(String msg) {
        try {
            System.err.println("memrepro: " + msg);
            System.err.flush();
        } catch (Throwable t) {
            // no stderr: nothing to do
        }
    }

    /** The fd in variable var: -1 when unset, -2 when not a decimal fd. */
    private static int envFd(String var) {
        String v = System.getenv(var);
        if (v == null) {
            return -1;
        }
        if (v.length() >= 1 && v.length() <= 9 && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Integer.parseInt(v);
        }
        say(var + " is not a file descriptor number: " + v + "; checkpoints are off");
        return -2;
    }

    private static synchronized void gone() {
        try {
            if (ckpt != null) {
                ckpt.close();
            }
            if (ack != null) {
                ack.close();
            }
        } catch (Throwable t) {
            // closing a gone pipe: nothing to do
        }
        ckpt = null;
        ack = null;
    }

    /** Open the two pipes (a daemon thread, at most OPEN_MS). */
    private static void open(int c, int a) {
        final FileOutputStream[] out = new FileOutputStream[1];
        final FileInputStream[] in = new FileInputStream[1];
        Thread t = new Thread(() -> {
            try {
                out[0] = new FileOutputStream("/proc/self/fd/" + c);
                in[0] = new FileInputStream("/proc/self/fd/" + a);
            } catch (Throwable e) {
                // EBADF, ENOENT: an fd that is not open, as a gone runner
            }
        }, "memrepro-open");
        t.setDaemon(true);
        t.start();
        try {
            t.join(OPEN_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (Memrepro.class) {
            if (!t.isAlive() && out[0] != null && in[0] != null) {
                ckpt = out[0];
                ack = in[0];
            } else if (!t.isAlive()) {
                try {
                    if (out[0] != null) {
                        out[0].close();
                    }
                } catch (Throwable e) {
                    // nothing to do
                }
            }
        }
    }

    /**
     * Take --param NAME=VALUE and --param=NAME=VALUE off args (the last one
     * wins), open the runner's pipes when it named them; the program's own
     * arguments are returned.  Call once, first thing in main.
     */
    public static synchronized String[] init(String[] args) {
        List<String> rest = new ArrayList<>();
        try {
            for (int i = 0; args != null && i < args.length; i++) {
                String kv = null;
                if (args[i].equals("--param") && i + 1 < args.length) {
                    kv = args[++i];
                } else if (args[i].startsWith("--param=")) {
                    kv = args[i].substring("--param=".length());
                } else {
                    rest.add(args[i]);
                }
                if (kv != null) {
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        say("--param wants NAME=VALUE, not '" + kv + "'; ignored");
                    } else {
                        params.put(kv.substring(0, eq), kv.substring(eq + 1));
                    }
                }
            }
            if (!started) {
                started = true;
                int c = envFd("MEMREPRO_CKPT_FD"), a = envFd("MEMREPRO_ACK_FD");
                if (c >= 0 && a >= 0) {
                    open(c, a);
                } else if ((c == -1) != (a == -1) && c != -2 && a != -2) {
                    say("MEMREPRO_CKPT_FD and MEMREPRO_ACK_FD go together; only one is set; checkpoints are off");
                }
            }
        } catch (Throwable t) {
            gone();
        }
        return rest.toArray(new String[0]);
    }

    private static boolean goodName(String name) {
        if (name.length() < 1 || name.length() > NAME_MAX) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** Record checkpoint name and wait until the runner has measured us. */
    public static synchronized void checkpoint(String name) {
        try {
            if (!started) {
                init(new String[0]);
            }
            name = String.valueOf(name);
            if (!goodName(name)) {
                say("checkpoint name is not [a-z0-9_-]{1,63}: " + name + "; dropped");
                return;
            }
            int seq = seen.getOrDefault(name, 0) + 1;
            seen.put(name, seq);
            if (ckpt == null) {
                return;
            }
            ckpt.write(("ckpt\t" + name + "\t" + seq + "\n").getBytes(StandardCharsets.US_ASCII));
            // A blocking read of one byte; other threads run meanwhile, as
            // they do while a C case waits.  EOF: -1.
            if (ack.read() < 0) {
                gone();
            }
        } catch (Throwable t) { // "Broken pipe", EBADF, ...
            gone();
        }
    }

    /** The value of --param name=VALUE; def when absent. */
    public static synchronized String param(String name, String def) {
        String v = params.get(String.valueOf(name));
        return v != null ? v : def;
    }
}
