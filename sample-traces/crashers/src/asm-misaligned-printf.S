/* report_total: hand-written assembly that calls printf without keeping the SysV stack
 * alignment (it pushes one register, so rsp = 8 mod 16 at the call). glibc's printf saves
 * vector registers with movaps to its stack frame and faults (#GP, SIGSEGV, si_addr 0). */
    .section .rodata
fmt:
    .string "total %ld %f\n"
    .text
    .globl report_total
    .type report_total, @function
report_total:
    .cfi_startproc
    push %rbx                   /* rsp was 16-aligned - 8 at entry; now 16-aligned ...   */
    .cfi_def_cfa_offset 16
    .cfi_offset %rbx, -16
    sub $8, %rsp                /* ... and now 8 mod 16: the call below is misaligned     */
    .cfi_def_cfa_offset 24
    mov %rdi, %rsi
    lea fmt(%rip), %rdi
    cvtsi2sd %rsi, %xmm0
    mov $1, %eax                /* one vector argument: printf's prologue saves xmm0-7  */
    call printf@PLT
    add $8, %rsp
    .cfi_def_cfa_offset 16
    pop %rbx
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size report_total, .-report_total
    .section .note.GNU-stack,"",@progbits
