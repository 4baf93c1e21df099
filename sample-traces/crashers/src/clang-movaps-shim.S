/* call_unaligned: hand-written glue that calls a C function with rsp = 8 (mod 16) at the
 * call (it pushes one word too many). */
    .text
    .globl call_unaligned
    .type call_unaligned, @function
call_unaligned:
    .cfi_startproc
    push %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    mov %rsp, %rbp
    .cfi_def_cfa_register %rbp
    push %rbx
    .cfi_offset %rbx, -24
    mov %rdi, %rax
    mov %rsi, %rdi
    call *%rax                  /* rsp is 8 mod 16 here */
    pop %rbx
    pop %rbp
    .cfi_def_cfa %rsp, 8
    ret
    .cfi_endproc
    .size call_unaligned, .-call_unaligned
    .section .note.GNU-stack,"",@progbits
