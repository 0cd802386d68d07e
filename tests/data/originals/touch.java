// A fixture original for tests/javahelper.bats: lib/Memrepro.java on the
// fixture model "touch" (its class found in ../lib, as build/ has it).
// memrepro: params mb
import java.util.Arrays;

public class Touch {
    public static void main(String[] argv) {
        String[] args = Memrepro.init(argv);
        int mb = Integer.parseInt(Memrepro.param("mb", "64"));
        byte[] buf = new byte[mb << 20];
        Arrays.fill(buf, (byte) 1);
        Memrepro.checkpoint("touched");
        System.out.println("touched " + (buf.length >> 20) + " MiB; argv " + String.join(" ", args));
    }
}
