// jni-fatal-error: the native method finds a header it cannot parse and calls JNI FatalError.
public class JniFatal {
    static native int parseHeader(byte[] header);

    public static void main(String[] args) {
        System.loadLibrary("jni-fatal-error");
        byte[] header = {0x7f, 'E', 'L', 'G'};
        System.out.println("version " + parseHeader(header));
    }
}
