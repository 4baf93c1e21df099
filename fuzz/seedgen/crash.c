struct s { int pad; long *p; };
static inline long get(struct s *x) { return *x->p; }
__attribute__((noinline)) long f(struct s *x, int n) { return get(x) + n; }
int main(void) { struct s x = {1, 0}; return (int)f(&x, 3); }
