package libsvm

import "testing"

func TestParse(t *testing.T) {
	acc, err := CVAccuracy("optimization finished\nCross Validation Accuracy = 96.1234%\n")
	if err != nil || acc != 96.1234 {
		t.Errorf("CVAccuracy = %v, %v", acc, err)
	}
	if _, err := CVAccuracy("garbage"); err == nil {
		t.Error("CVAccuracy accepted garbage")
	}
	c, n, err := PredictAccuracy("Accuracy = 95.2167% (1911/2007) (classification)\n")
	if err != nil || c != 1911 || n != 2007 {
		t.Errorf("PredictAccuracy = %d/%d, %v", c, n, err)
	}
	if _, _, err := PredictAccuracy("nothing"); err == nil {
		t.Error("PredictAccuracy accepted garbage")
	}
	if got, err := TotalSV("svm_type c_svc\nnr_class 2\ntotal_sv 1046\nrho 0.1\n"); err != nil || got != 1046 {
		t.Errorf("TotalSV = %d, %v", got, err)
	}
	if _, err := TotalSV("svm_type c_svc\n"); err == nil {
		t.Error("TotalSV without a total_sv line")
	}
	if Float(0.25) != "0.25" || Float(1e-5) != "1e-05" {
		t.Errorf("Float: %s %s", Float(0.25), Float(1e-5))
	}
	if Tail("abcdef", 3) != "...def" || Tail("ab", 3) != "ab" {
		t.Error("Tail")
	}
}
