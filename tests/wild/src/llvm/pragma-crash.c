int main(void) {
#pragma clang __debug crash
    return 0;
}
