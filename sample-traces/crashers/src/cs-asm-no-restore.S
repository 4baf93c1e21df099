/* fold_bytes: saves rbx, rbp and r12-r15 (with CFI), uses them as accumulators, and returns
 * without restoring them: `add $40,%rsp` drops the saved copies (the bug: the pops were
 * forgotten). */
    .text
    .globl fold_bytes
    .type fold_bytes, @function
fold_bytes:
    .cfi_startproc
    push %rbx
    .cfi_def_cfa_offset 16
    .cfi_offset rbx, -16
    push %r12
    .cfi_def_cfa_offset 24
    .cfi_offset r12, -24
    push %r13
    .cfi_def_cfa_offset 32
    .cfi_offset r13, -32
    push %r14
    .cfi_def_cfa_offset 40
    .cfi_offset r14, -40
    push %r15
    .cfi_def_cfa_offset 48
    .cfi_offset r15, -48
    push %rbp
    .cfi_def_cfa_offset 56
    .cfi_offset rbp, -56
    mov $0x26, %ebp
    mov $0x21, %ebx
    mov $0x22, %r12d
    mov $0x23, %r13d
    mov $0x24, %r14d
    mov $0x25, %r15d
    xor %eax, %eax
1:  test %rsi, %rsi
    jz 2f
    movzbl (%rdi), %ecx
    add %rcx, %rax
    inc %rdi
    dec %rsi
    jmp 1b
2:  add $48, %rsp               /* BUG: drops the saved registers instead of popping them */
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size fold_bytes, .-fold_bytes
    .section .note.GNU-stack,"",@progbits
