%% Legal work for the BEAM JIT (sixth pass): processes sending messages, a hashing loop the
%% JIT runs, binaries, ETS, exceptions caught, and garbage collections.
-module(work6).
-export([main/0, loop/1, ping/1]).

hash(S, I) -> ((I * 31) bxor (S bsr 3) bxor (S bsl 5)) band 16#ffffffffffff.

loop(S) ->
    S1 = lists:foldl(fun(I, A) -> hash(A, I) end, S, lists:seq(1, 5000)),
    B = term_to_binary({S1, lists:seq(1, 50)}),
    _ = binary_to_term(B),
    R = try erlang:element(4, {S1}) catch error:badarg -> S1 + 1 end,
    loop(R band 16#ffff).

ping(0) -> ok;
ping(N) ->
    Self = self(),
    P = spawn(fun() -> receive {From, X} -> From ! {done, X * 2} end end),
    P ! {Self, N},
    receive {done, _} -> ok end,
    ping(N - 1).

main() ->
    T = ets:new(t, [set, public]),
    [spawn(?MODULE, loop, [I]) || I <- lists:seq(1, 3)],
    main(T, 0).

main(T, R) ->
    ping(200),
    [ets:insert(T, {I, lists:duplicate(8, R)}) || I <- lists:seq(1, 500)],
    case R rem 200 of 0 -> io:format("round ~p~n", [R]); _ -> ok end,
    main(T, R + 1).
