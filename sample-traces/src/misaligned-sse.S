/* call_misaligned(fn, v, n): forwards to fn(v, n) but forgets that its own
 * `push %rbp` already re-aligned the stack and subtracts another 8 bytes, so
 * the callee is entered with (rsp + 8) % 16 == 8 instead of 0. */
        .text
        .globl  call_misaligned
        .type   call_misaligned, @function
call_misaligned:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        subq    $8, %rsp                /* BUG: breaks 16-byte alignment */
        movq    %rdi, %rax
        movq    %rsi, %rdi
        movl    %edx, %esi
        call    *%rax
        leave
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   call_misaligned, .-call_misaligned
        .section .note.GNU-stack,"",@progbits
