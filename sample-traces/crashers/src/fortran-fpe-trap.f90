! gfortran -ffpe-trap=zero,invalid: a normalization divides by a zero norm; the trap turns
! the IEEE division by zero into SIGFPE (FPE_FLTDIV) at the divsd in the module procedure.
module vec_mod
  implicit none
contains
  subroutine normalize(v)
    real(8), intent(inout) :: v(:)
    real(8) :: norm
    norm = sqrt(sum(v * v))
    v = v / norm
  end subroutine normalize
end module vec_mod

program fpe
  use vec_mod
  implicit none
  real(8) :: a(3) = [3d0, 4d0, 0d0], b(3) = [0d0, 0d0, 0d0]
  call normalize(a)
  print *, a
  call normalize(b)
  print *, b
end program fpe
