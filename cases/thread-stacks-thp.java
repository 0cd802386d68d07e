// thread-stacks-thp.java: Java threads with -Xss2m stacks started in a
// burst, then idle, beside cases/thread-stacks-thp.c.  Behaviour: under
// THP always on a kernel before 6.7 their stacks are backed by huge pages
// before each thread places its guard pages, and stay resident after the
// split (the mechanism is explained in the model's header).
//
// Sources (seeds/009_549fde075eb26fb3.txt): openjdk/jdk11u-dev#2205
// (2023): "starting a test program spawning 10000 threads with -Xss2m. If
// the machine has THP set to "madvise" or "never", this would cost
// 300-600MB RSS. With THP set to "always," it costs 2-3GB RSS";
// jdk11u-dev#3223 (2026), RHEL 9.6, kernel 5.14, JDK 11.0.31, `java
// -Xss2m -XX:+AlwaysPreTouch Test`: "VmRSS: 13053880 kB, Threads: 10020"
// (its Test.java prints /proc/self/status; the program itself was an
// attachment, not read).  This one is written here to do what the
// reports say theirs did:
//  - `threads` Java threads started one after the other as fast as the
//    JVM starts them, each recursing through a few KiB of its stack, then
//    waiting on a latch (idle threads);
//  - checkpoint start (the JVM up, before the threads) and started (every
//    thread running and waiting), and the program prints VmSize, VmRSS
//    and Threads from /proc/self/status, as the report's Test.java did.
// The stack size is the JVM's own (-Xss2m, the flag below); so are its
// guard pages and the placement of its stacks: the model's stack_kb,
// touch_kb, guard_kb and settle_ms are ignored.  mitigation is the JVM's
// diagnostic switch THPStackMitigation (JDK-8312182: with THP always a
// fixed JVM gives glibc a guard page between stacks; on by default):
// mitigation=none is -XX:-THPStackMitigation, glibc-guard
// -XX:+THPStackMitigation, in _JAVA_OPTIONS, which the VM reads after the
// command line's -XX:+UnlockDiagnosticVMOptions (JDK_JAVA_OPTIONS comes
// before it: "The unlock option must precede").  Debian's 17.0.19 has the
// switch; 11.0.24 has neither it nor the fix (jdk11u-dev#3223, 2026) and
// runs unmitigated either way (-XX:+IgnoreUnrecognizedVMOptions).
//
// memrepro: params threads
// memrepro: ignores stack_kb touch_kb guard_kb settle_ms
// memrepro: flags -Xss2m -XX:+UnlockDiagnosticVMOptions -XX:+IgnoreUnrecognizedVMOptions -XX:+UseSerialGC -Xms64m -Xmx64m
// memrepro: env mitigation=none _JAVA_OPTIONS=-XX:-THPStackMitigation
// memrepro: env mitigation=glibc-guard _JAVA_OPTIONS=-XX:+THPStackMitigation
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

public class ThreadStacksThp {
    static String status(String key) throws Exception {
        for (String l : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (l.startsWith(key + ":")) {
                return l.substring(key.length() + 1).trim();
            }
        }
        return "?";
    }

    // A few frames of stack, written (about 16 KiB at depth 64).
    static long frames(int depth) {
        long[] pad = new long[8];
        pad[depth % 8] = depth;
        return depth == 0 ? pad[0] : pad[depth % 8] + frames(depth - 1);
    }

    public static void main(String[] argv) throws Exception {
        Memrepro.init(argv);
        int threads = Integer.parseInt(Memrepro.param("threads", "1000"));
        CountDownLatch running = new CountDownLatch(threads), done = new CountDownLatch(1);
        long[] sums = new long[threads];

        Memrepro.checkpoint("start");
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int i = t;
            Thread th = new Thread(() -> {
                sums[i] = frames(64);
                running.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "idle-" + t);
            th.start();
            ts.add(th);
        }
        running.await();
        Memrepro.checkpoint("started");
        System.out.printf("started: %d threads; VmSize %s, VmRSS %s, Threads %s%n",
                threads, status("VmSize"), status("VmRSS"), status("Threads"));
        done.countDown();
        for (Thread th : ts) {
            th.join();
        }
        long s = 0;
        for (long v : sums) {
            s += v;
        }
        if (s == 42) {
            System.out.println();
        }
    }
}
