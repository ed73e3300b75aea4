%define api.pure full
%%
start: %empty ;
%%
