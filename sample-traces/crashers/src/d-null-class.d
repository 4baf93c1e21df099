// D (gdc -O0): a class reference that was never constructed is null; a final method reads a
// field through it: SIGSEGV at a NULL-based address in the method (druntime installs no
// SIGSEGV handler by default).
module nullclass;

import core.stdc.stdio : printf;

final class Tokenizer
{
    int pos;
    string text;

    int peek()
    {
        return pos < text.length ? text[pos] : -1;
    }
}

Tokenizer current; // never assigned

int countTokens()
{
    int n;
    while (current.peek() != -1 && n < 10)
        n++;
    return n;
}

void main()
{
    printf("%d\n", countTokens());
}
