! gfortran -O0: a pointer component that was never associated is read (no -fcheck): the
! access goes through a NULL address, SIGSEGV in the program's subroutine.
module grid_mod
  implicit none
  type :: grid
     integer :: n = 0
     real, pointer :: cells(:) => null()
  end type grid
contains
  real function total(g)
    type(grid), intent(in) :: g
    integer :: i
    total = 0.0
    do i = 1, g%n
       total = total + g%cells(i)
    end do
  end function total
end module grid_mod

program main
  use grid_mod
  implicit none
  type(grid) :: g
  g%n = 4 ! cells never allocated
  print *, total(g)
end program main
