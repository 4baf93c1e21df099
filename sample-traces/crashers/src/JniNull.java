// jni-null: a Java program whose native method (libjni-null.so) follows a NULL pointer; the
// JVM's own SIGSEGV handler writes its fatal error report (-XX:ErrorFile=/dev/stderr) and aborts.
public class JniNull {
    static native long checksum(int[] data, int len);

    static long digest(int[] data) {
        return checksum(data, data.length);
    }

    public static void main(String[] args) {
        System.loadLibrary("jni-null");
        int[] data = {3, 1, 4, 1, 5, 9};
        System.out.println("digest " + digest(data));
    }
}
