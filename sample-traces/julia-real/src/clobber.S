/* clobber.S: a memset that breaks the x86-64 C ABI (linked only into build/harness-clobber,
 * which exports it, so libetcouple.so's memset@plt binds to it; see more3.c, shape-clobber).
 * It fills memory like memset, then, once armed (clobber_armed != 0) and only for a caller in
 * libetcouple.so (clobber_check), returns with the callee-saved r13 overwritten: a C function
 * called from Julia code that does not preserve a callee-saved register. */
    .text
    .globl memset
    .type memset, @function
memset:
    mov %rdi, %r8
    mov %esi, %eax
    mov %rdx, %rcx
    rep stosb
    mov %r8, %rax
    cmpb $0, clobber_armed(%rip)
    jne 1f
    ret
1:  push %rax
    mov 8(%rsp), %rdi      /* the return address: who called */
    call clobber_check
    test %eax, %eax
    pop %rax
    jz 2f
    movabs $0x4141414141414140, %r13
2:  ret
    .size memset, .-memset
    .section .note.GNU-stack,"",@progbits
