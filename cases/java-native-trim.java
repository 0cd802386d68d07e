// java-native-trim.java: a JVM's burst of native mallocs, freed, and the
// JVM's periodic trimmer (-XX:TrimNativeHeapInterval), beside
// cases/java-native-trim.c.  Behaviour: the freed burst stays resident
// under glibc until the trimmer's malloc_trim(0) hands it back (the
// mechanism is explained in the model's header).
//
// Sources: openjdk/jdk#14781 (JDK-8293114, 2023): "Temporary malloc spikes
// often carry over as permanent RSS increase"; redhat-developer/
// vscode-java#3395 (2023), the Java language server before its first
// trim: "C-Heap outstanding allocations: 46526K, retained: 2104565K".
// Neither printed a program (the burst was the JIT's): this one is written
// here, the smallest Java that makes such a burst through the JDK:
//  - `compilers` threads (the JIT's) share spike_mb of native memory, each
//    making java.util.zip.Deflaters (zlib's deflateInit2: four 64 KiB
//    buffers and its ~6 KiB state, malloc'ed in the thread's arena), and
//    after each an Inflater that stays (inflateInit's ~7 KiB state: the
//    survivor between the freed chunks, 2.7 % of the burst; the report's
//    outstanding is 2.2 % of its retained);
//  - checkpoint spike with every Deflater alive, freed after every one is
//    end()ed (the survivors kept), idle after 3 x interval_ms of sleep,
//    at least 1 s (the trimmer may skip a turn: after 300 ms it had
//    handed back only part of the burst);
//  - the program prints VmRSS at each, from /proc/self/status.
// The trimmer is the JVM's: trim=periodic is -XX:TrimNativeHeapInterval=
// interval_ms (JAVA_TOOL_OPTIONS, read by the VM), trim=none sets it to 0
// on the launcher's command line (JDK_JAVA_OPTIONS, which comes after
// JAVA_TOOL_OPTIONS).  Debian's 17.0.19, 21.0.13 and 25.0.5 take the
// switch as a product one (JDK-8325496's backports); 11.0.24 does not
// know it: -XX:+IgnoreUnrecognizedVMOptions lets it run, untrimmed, which
// is what an 11 does.  The model's survivor_b is the Inflater's here.
//
// memrepro: params compilers spike_mb interval_ms
// memrepro: ignores survivor_b
// memrepro: flags -XX:+IgnoreUnrecognizedVMOptions -XX:+UseSerialGC -Xms96m -Xmx96m -XX:+AlwaysPreTouch
// memrepro: env interval_ms=100 JAVA_TOOL_OPTIONS=-XX:TrimNativeHeapInterval=100
// memrepro: env interval_ms=5000 JAVA_TOOL_OPTIONS=-XX:TrimNativeHeapInterval=5000
// memrepro: env trim=none JDK_JAVA_OPTIONS=-XX:TrimNativeHeapInterval=0
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

public class JavaNativeTrim {
    static final List<Deflater> burst = new ArrayList<>();
    static final List<Inflater> kept = new ArrayList<>();

    static String rss() throws Exception {
        for (String l : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (l.startsWith("VmRSS:")) {
                return l.substring(6).trim();
            }
        }
        return "?";
    }

    public static void main(String[] argv) throws Exception {
        Memrepro.init(argv);
        int compilers = Integer.parseInt(Memrepro.param("compilers", "4"));
        long spike = Long.parseLong(Memrepro.param("spike_mb", "256")) << 20;
        long interval = Long.parseLong(Memrepro.param("interval_ms", "5000"));
        long each = 4 * 65536 + 6 * 1024; // a Deflater's native bytes, about
        int per = (int) Math.max(1, spike / each / compilers);
        byte[] in = new byte[64 << 10]; // fills the window and prev

        for (int i = 0; i < in.length; i++) {
            in[i] = (byte) (i * 31 % 251);
        }

        Memrepro.checkpoint("start");
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < compilers; t++) {
            Thread th = new Thread(() -> {
                List<Deflater> mine = new ArrayList<>();
                List<Inflater> stay = new ArrayList<>();
                byte[] out = new byte[96 << 10];
                for (int i = 0; i < per; i++) {
                    Deflater d = new Deflater();
                    d.setInput(in);
                    d.finish();
                    d.deflate(out); // its buffers written
                    mine.add(d);
                    stay.add(new Inflater());
                }
                synchronized (burst) {
                    burst.addAll(mine);
                    kept.addAll(stay);
                }
            }, "compiler-" + t);
            th.start();
            ts.add(th);
        }
        for (Thread th : ts) {
            th.join();
        }
        Memrepro.checkpoint("spike");
        System.out.printf("spike: %d deflaters, RSS %s%n", burst.size(), rss());
        for (Deflater d : burst) {
            d.end();
        }
        burst.clear();
        Memrepro.checkpoint("freed");
        System.out.printf("freed: %d inflaters kept, RSS %s%n", kept.size(), rss());
        long idle = Math.max(3 * interval, 1000);
        Thread.sleep(idle);
        Memrepro.checkpoint("idle");
        System.out.printf("idle %d ms: RSS %s%n", idle, rss());
        for (Inflater f : kept) {
            f.end();
        }
    }
}
