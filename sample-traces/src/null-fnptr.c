/* null-fnptr: call through a NULL function pointer -> pc == 0. -O0 -g. */
#include <stdio.h>

struct handler_ops {
    int (*open)(void *ctx, const char *path);
    int (*read)(void *ctx, char *buf, int len);   /* left NULL */
    void (*close)(void *ctx);
};

static int file_open(void *ctx, const char *path) { (void)ctx; printf("open %s\n", path); return 0; }
static void file_close(void *ctx) { (void)ctx; }

static const struct handler_ops file_ops = { file_open, NULL, file_close };

struct stream { const struct handler_ops *ops; void *ctx; char buf[64]; };

__attribute__((noinline)) static int stream_fill(struct stream *s)
{
    return s->ops->read(s->ctx, s->buf, (int)sizeof s->buf);   /* read == NULL */
}

__attribute__((noinline)) static int stream_copy(struct stream *s, const char *path)
{
    if (s->ops->open(s->ctx, path) != 0)
        return -1;
    int n = stream_fill(s);
    s->ops->close(s->ctx);
    return n;
}

int main(void)
{
    struct stream s = { &file_ops, (void *)0x1234, {0} };
    return stream_copy(&s, "/etc/hostname") < 0;
}
