import "err-import-cycle-a.cake";
