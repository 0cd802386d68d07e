// java-arenas.java: a JVM whose threads make native allocations, beside
// cases/java-arenas.c.  Behaviour: each thread that mallocs takes a glibc
// arena of its own while fewer than the limit exist, each arena a 64 MiB
// heap of VSZ with a few pages touched (the mechanism is explained in the
// model's header); MALLOC_ARENA_MAX=2 caps them.
//
// Sources: bigbluebutton/bigbluebutton#25309 (2026), bbb-web on 16 vCPU,
// 90 s after each restart:
//                            RSS          VSZ          threads
//   default (128 arenas)     863,916 kB   9,413,156 kB   104
//   MALLOC_ARENA_MAX=2       800,216 kB   2,431,520 kB    99
// canton-network/splice#316 (2025): "JVM based software tends to create a
// lot of threads, at the same time it has it's own memory management so it
// doesn't call malloc frequently".  Neither report printed a program: the
// JVM is the program (bbb-web, a Grails application).  This one is written
// here, the smallest Java that does what their JVMs did:
//  - `threads` Java threads (bbb-web's 104), each making native
//    allocations of its own through the JDK: a java.util.zip.Deflater,
//    whose zlib state (deflateInit2: window, prev, head, pending buffer,
//    ~256 KiB in pieces of 64 KiB) is malloc'ed by the thread that creates
//    it, kept (not end()ed) as a JVM keeps its native buffers, and one
//    deflate of 64 KiB through it; then each thread parks, as a server's
//    threads wait for work;
//  - the JVM's own threads (GC, JIT compilers, the reference handler...)
//    malloc too, as in the reports: the arenas counted are the process's;
//  - Memrepro.checkpoint at start (the JVM up, before the threads) and at
//    started (every thread parked: the report's 90 s), and the program
//    prints VSZ, RSS and threads from /proc/self/status, the report's
//    columns.
//
// The limit comes from the environment (GLIBC_TUNABLES
// glibc.malloc.arena_max, what MALLOC_ARENA_MAX sets: the claims' axis),
// read by the JVM's glibc; nothing here sets it.  The model's stack_kb,
// thread_kb and transient_kb model the JVM itself: ignored here.
//
// memrepro: params threads
// memrepro: ignores stack_kb thread_kb transient_kb
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.zip.Deflater;

public class JavaArenas {
    static final List<Deflater> kept = new ArrayList<>();

    static String status(String key) throws Exception {
        for (String l : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (l.startsWith(key + ":")) {
                return l.substring(key.length() + 1).trim();
            }
        }
        return "?";
    }

    public static void main(String[] argv) throws Exception {
        Memrepro.init(argv);
        int threads = Integer.parseInt(Memrepro.param("threads", "104"));
        CountDownLatch ready = new CountDownLatch(threads), done = new CountDownLatch(1);
        byte[] in = new byte[64 << 10], out = new byte[128 << 10];
        long sum = 0;

        for (int i = 0; i < in.length; i++) {
            in[i] = (byte) (i * 31 % 251);
        }
        Memrepro.checkpoint("start");
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                Deflater d = new Deflater();
                d.setInput(in);
                d.finish();
                byte[] o = new byte[out.length];
                int n = d.deflate(o);
                synchronized (kept) {
                    kept.add(d);
                }
                if (n <= 0) {
                    System.err.println("deflate gave nothing");
                }
                ready.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "worker-" + t);
            th.start();
            ts.add(th);
        }
        ready.await();
        synchronized (kept) {
            for (Deflater d : kept) {
                sum += d.getBytesWritten();
            }
        }
        Memrepro.checkpoint("started");
        System.out.printf("threads %d (%s in the process), deflated %d bytes each: VSZ %s, RSS %s%n",
                threads, status("Threads"), sum / Math.max(threads, 1), status("VmSize"), status("VmRSS"));
        done.countDown();
        for (Thread th : ts) {
            th.join();
        }
        synchronized (kept) {
            for (Deflater d : kept) {
                d.end();
            }
        }
    }
}
