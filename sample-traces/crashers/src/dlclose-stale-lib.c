/* The plugin for dlclose-stale: a scoring callback the host keeps a pointer to. */
int plugin_score(int x) { return x * 3 + 1; }
