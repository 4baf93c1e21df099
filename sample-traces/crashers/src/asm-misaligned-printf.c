/* Calls the assembly helper report_total, which calls printf with a misaligned stack. */
void report_total(long total);

int main(void)
{
    report_total(42);
    return 0;
}
