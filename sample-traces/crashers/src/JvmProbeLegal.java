// jvm-probe-legal: look-alike. A legal Java program; nothing in it faults. Under gdb with its
// default signal handling, the first stop is HotSpot's own deliberate SIGSEGV at startup
// (VM_Version::get_processor_features reads address 0 from a generated stub to check that the
// kernel preserves the vector registers across a signal; the JVM's handler resumes it). The same
// handler resolves its implicit null checks and safepoint polls. Nothing has crashed.
public class JvmProbeLegal {
    static final class Cell {
        int value;
    }

    static int read(Cell c) {
        return c.value;
    }

    public static void main(String[] args) {
        int missing = 0;
        Cell[] cells = {new Cell(), null, new Cell()};
        for (Cell c : cells) {
            try {
                read(c);
            } catch (NullPointerException e) {
                missing++;
            }
        }
        System.out.println("missing " + missing);
    }
}
