module github.com/callgrade/callgrade

go 1.26
