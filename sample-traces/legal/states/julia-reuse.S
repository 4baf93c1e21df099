# A function shaped like Julia's specsig code: it takes the GC-stack pointer in r13, reads it
# once at entry (keeping the task's world age in rbx), then reuses r13 as a loop counter, which
# is legal for a callee-saved register the function saved. Stopped inside the loop, r13 holds
# the counter, not a pgcstack. No Julia runtime: jfptr_reuse_7 below is its C-ABI caller.
        .text
        .globl  julia_reuse_6
        .type   julia_reuse_6, @function
julia_reuse_6:
        .cfi_startproc
        push    %r13
        .cfi_def_cfa_offset 16
        .cfi_offset %r13, -16
        push    %rbx
        .cfi_def_cfa_offset 24
        .cfi_offset %rbx, -24
        sub     $8, %rsp
        .cfi_def_cfa_offset 32
        mov     8(%r13), %rbx           # read through the incoming r13
        mov     $3, %r13d               # r13 reused: the loop counter
        xor     %eax, %eax
        .globl  julia_reuse_loop
julia_reuse_loop:
        add     %rdi, %rax
        add     %rbx, %rax
        call    reuse_probe
        dec     %r13
        jnz     julia_reuse_loop
        add     $8, %rsp
        .cfi_def_cfa_offset 24
        pop     %rbx
        .cfi_def_cfa_offset 16
        pop     %r13
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   julia_reuse_6, .-julia_reuse_6

# The C-ABI wrapper: hands julia_reuse_6 a pgcstack-like pointer (a two-word block on its
# stack) in r13, as Julia's caller would.
        .globl  jfptr_reuse_7
        .type   jfptr_reuse_7, @function
jfptr_reuse_7:
        .cfi_startproc
        push    %r13
        .cfi_def_cfa_offset 16
        .cfi_offset %r13, -16
        sub     $16, %rsp
        .cfi_def_cfa_offset 32
        movq    $0, (%rsp)
        movq    $41, 8(%rsp)
        mov     %rsp, %r13
        call    julia_reuse_6
        add     $16, %rsp
        .cfi_def_cfa_offset 16
        pop     %r13
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   jfptr_reuse_7, .-jfptr_reuse_7
        .section .note.GNU-stack,"",@progbits
