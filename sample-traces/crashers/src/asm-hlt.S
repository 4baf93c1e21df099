/* spin_wait: hand-written assembly that executes the privileged instruction hlt, meant
 * for a kernel build, in user space: #GP, SIGSEGV with si_code SI_KERNEL and si_addr 0,
 * although no pointer is involved. */
    .text
    .globl spin_wait
    .type spin_wait, @function
spin_wait:
    .cfi_startproc
    test %rdi, %rdi
    jz 1f
    hlt
1:  ret
    .cfi_endproc
    .size spin_wait, .-spin_wait
    .section .note.GNU-stack,"",@progbits
