// Legal work for HotSpot (sixth pass): a hot loop the JIT compiles, allocation that makes
// the GC run (safepoints: compiled code polls an armed page and takes SIGSEGV), implicit null
// checks that fault on purpose (a NullPointerException caught in a hot method), a deep
// recursion caught as StackOverflowError (the guard pages), and a few threads.
import java.util.*;

public class Work6 {
    static final class Node { Node next; long v; Node(long v) { this.v = v; } }

    static long hash(long s, long i) { return (i * 31) ^ (s >>> 3) ^ (s << 7); }

    static long len(Node n) { return n.next == null ? n.v : n.v + 1; } // implicit null check on n

    static int depth(int n) { return n == 0 ? 0 : 1 + depth(n + 1 - 2 + 1 - 1 + 1); }

    public static void main(String[] a) throws Exception {
        long rounds = a.length > 0 ? Long.parseLong(a[0]) : Long.MAX_VALUE;
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            final int id = t;
            Thread th = new Thread(() -> {
                long s = id;
                Map<Long, Node> m = new HashMap<>();
                for (long i = 0; ; i++) {
                    s += hash(s, i);
                    Node n = new Node(s);
                    n.next = m.get(i & 1023);
                    m.put(i & 1023, n);
                    if ((i & 0xfff) == 0) m.clear();
                    if ((i & 0xffffff) == 0 && s == 42) System.out.print("");
                }
            }, "worker-" + t);
            th.setDaemon(true);
            th.start();
            ts.add(th);
        }
        long nulls = 0, overflows = 0;
        Node[] nodes = new Node[64];
        for (int i = 0; i < nodes.length; i += 2) nodes[i] = new Node(i);
        for (long r = 0; r < rounds; r++) {
            for (int k = 0; k < 200000; k++) {
                try {
                    nulls += len(nodes[k & 63]);
                } catch (NullPointerException e) {
                    nulls++;
                }
            }
            if (r % 20 == 0) {
                try {
                    depth(1);
                } catch (StackOverflowError e) {
                    overflows++;
                }
            }
            byte[][] junk = new byte[256][];
            for (int j = 0; j < junk.length; j++) junk[j] = new byte[4096];
            if (junk[(int) (r & 255)].length != 4096) System.out.println("?");
            if (r % 500 == 0) System.out.println("round " + r + " " + nulls + " " + overflows);
        }
    }
}
