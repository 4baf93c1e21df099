/* The plugin's constructor runs inside dlopen() (the dynamic loader's _dl_init); it registers
 * itself in a host table that the host fills only after dlopen returns: NULL write. */
struct registry { int count; void *entries[16]; };
extern struct registry *host_registry;

__attribute__((constructor)) static void plugin_register(void)
{
    host_registry->entries[host_registry->count++] = (void *)plugin_register;
}
