//go:build noasm || !(amd64 || arm64)

package asm

func bestPath() Path { return Generic }

func Supported() []Path { return []Path{Generic} }
