module example.com/maxer

go 1.21
