/* The native half of JniFatal.java: an unexpected magic number is a fatal error for it. */
#include <jni.h>

JNIEXPORT jint JNICALL Java_JniFatal_parseHeader(JNIEnv *env, jclass cls, jbyteArray header)
{
    (void)cls;
    jbyte magic[4];
    (*env)->GetByteArrayRegion(env, header, 0, 4, magic);
    if (magic[3] != 'F')
        (*env)->FatalError(env, "parseHeader: bad magic in segment table");
    return magic[0];
}
