// The program of tests/javahelper.bats under its mock runner
// (tests/data/pyhelper/mock.py): three checkpoints with 16 MiB more
// written before each, a child by ProcessBuilder that must hold none of
// the fds (it sees the variables: Java cannot unset them), --param taken
// off the arguments, a bad name dropped.
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class Prog {
    public static void main(String[] argv) throws Exception {
        String[] args = Memrepro.init(argv);
        List<byte[]> keep = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            byte[] b = new byte[16 << 20];
            Arrays.fill(b, (byte) 1);
            keep.add(b);
            Memrepro.checkpoint("grow");
        }
        Memrepro.checkpoint("Bad Name");
        Process p = new ProcessBuilder("sh", "-c",
                "for fd in 3 4; do [ -e /proc/self/fd/$fd ] && echo child-has-fd $fd; done; true")
                .inheritIO().start();
        p.waitFor();
        Memrepro.checkpoint("done");
        System.out.println("param n=" + Memrepro.param("n", "none") + " argv " + String.join(" ", args)
                + " kept " + keep.size());
        System.out.println("end");
    }
}
