package data_test

import (
	"fmt"
	"strings"

	"github.com/passgp-fast/passgp-fast/data"
)

func ExampleReadLIBSVM() {
	in := "7 1:0.5 3:-1\n3 2:2 # a comment\n"
	ds, err := data.ReadLIBSVM(strings.NewReader(in), "small.libsvm", data.LIBSVMOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.N, ds.D, ds.Row(0), ds.Row(1), ds.Classes())
	y, _ := ds.BinaryLabels(nil) // the larger label becomes +1
	fmt.Println(y)

	_, err = data.ReadLIBSVM(strings.NewReader("1 1:1\n1 5:1 3:2\n"), "bad.libsvm", data.LIBSVMOptions{})
	fmt.Println(err)
	// Output:
	// 2 3 [0.5 0 -1] [0 2 0] [3 7]
	// [1 -1]
	// bad.libsvm:2: feature index 3 not greater than previous 5
}

func ExampleReadCSV() {
	in := "x1,x2,digit\n0.5,1,4\n-1,0,9\n"
	ds, err := data.ReadCSV(strings.NewReader(in), "small.csv", data.CSVOptions{LabelName: "digit"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.N, ds.D, ds.X, ds.Y)
	// Output:
	// 2 2 [0.5 1 -1 0] [4 9]
}
