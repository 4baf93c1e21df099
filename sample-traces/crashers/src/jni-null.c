/* The native half of JniNull.java: it looks up a scratch table that was never set up. */
#include <jni.h>
#include <stddef.h>

struct scratch {
    long seed;
    long *weights;
};

static struct scratch *current_scratch;

JNIEXPORT jlong JNICALL Java_JniNull_checksum(JNIEnv *env, jclass cls, jintArray data, jint len)
{
    (void)cls;
    jint *p = (*env)->GetIntArrayElements(env, data, NULL);
    long s = current_scratch->seed;
    for (jint i = 0; i < len; i++)
        s = s * 31 + p[i];
    (*env)->ReleaseIntArrayElements(env, data, p, JNI_ABORT);
    return s;
}
