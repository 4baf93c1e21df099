{ Free Pascal: a recursive tree depth that never reaches its base case (a cycle in the tree):
  the stack overflows (no -Ct stack checking), SIGSEGV in the guard page. }
program fpcrec;

type
  PNode = ^TNode;
  TNode = record
    Left, Right: PNode;
    Pad: array[0..3] of Int64;
  end;

function Depth(N: PNode): LongInt;
var
  L, R: LongInt;
begin
  if N = nil then
    Exit(0);
  L := Depth(N^.Left);
  R := Depth(N^.Right);
  if L > R then Depth := L + 1 else Depth := R + 1;
end;

var
  Root, Child: TNode;
begin
  Root.Left := @Child; Root.Right := nil;
  Child.Left := @Root; Child.Right := nil; { the cycle }
  WriteLn('depth ', Depth(@Root));
end.
