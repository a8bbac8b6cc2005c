package main

import (
	"fmt"

	"dpsim/core/data"
)

// mnistTrainRows is how many of MNIST's 60000 training images the
// 10-class set keeps (the first ones, in the original order): the full
// split would take ≈ 10 MB of the 30 MB budget and most of the 12 MB a
// page may download for one dataset.
const mnistTrainRows = 30000

// recipes lists every committed dataset, in manifest order. Everything
// about how a committed file derives from the original is here.
var recipes = []recipe{
	{
		meta: data.Dataset{
			Name:    "mushrooms",
			Title:   "LIBSVM mushrooms: poisonous vs edible, 112 one-hot features",
			Kind:    "float32",
			Cols:    112,
			Shape:   "112 binary features (one-hot of 22 UCI attributes)",
			Classes: []string{"poisonous", "edible"},
			Labels:  "LIBSVM label 1 (poisonous) → 0, 2 (edible) → 1",
			Scaling: "none needed: every feature is already 0 or 1",
			Subset:  "all 8124 rows; LIBSVM has no test split, so rows 5, 10, 15, … (every fifth, 1-based) are the test split (1624 rows) and the other 6500 the train split, in file order",
			Licence: "CC BY 4.0 (UCI Mushroom, J. Schlimmer 1987, doi:10.24432/C5959T); cite UCI and LIBSVM (Chang & Lin)",
			Source:  "LIBSVM binary 'mushrooms' (copy: GitHub recoilme/flyml dataset/mushrooms.svm @be5bd94), sha256 51919a59…2244",
			Note:    "the LDP online paper uses all 8124 rows; here 1624 are held out as a test split",
		},
		build: buildMushrooms,
	},
	{
		meta: data.Dataset{
			Name:    "ijcnn1",
			Title:   "LIBSVM ijcnn1: IJCNN 2001 challenge, 22 features",
			Kind:    "float32",
			Cols:    22,
			Shape:   "22 features: 1–10 a one-hot, 11–22 real",
			Classes: []string{"-1", "+1"},
			Labels:  "LIBSVM label -1 → 0, 1 → 1",
			Scaling: "min–max per feature over the train split, x ← (x − min)/(max − min), computed in float64 and rounded to float32; the same map is applied to the test split and clipped to [0, 1] (test values reach outside train's range)",
			Subset:  "train: LIBSVM 'ijcnn1' (train+validate, 49990 rows, the paper's set); test: LIBSVM 'ijcnn1.t' (91701 rows); original order",
			Licence: "no formal licence stated by LIBSVM; cite Prokhorov 2001 (IJCNN 2001 competition) and Chang & Lin 2001",
			Source:  "LIBSVM binary 'ijcnn1' and 'ijcnn1.t' (via GitHub X-DataInitiative/tick-datasets @9d959b6, content checked against the LIBSVM originals)",
		},
		build: buildIJCNN1,
	},
	{
		meta: data.Dataset{
			Name:    "mnist",
			Title:   "MNIST handwritten digits, 10 classes",
			Kind:    "uint8",
			Cols:    784,
			Shape:   "28×28 grey, row-major; pixel/255 in [0, 1]",
			Classes: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
			Labels:  "the digit",
			Scaling: "pixel/255",
			Subset:  fmt.Sprintf("train: the first %d of the 60000 training images, in the original order; test: all 10000", mnistTrainRows),
			Licence: "CC BY-SA 3.0, Y. LeCun and C. Cortes; cite LeCun et al. 1998",
			Source:  "MNIST train-/t10k-images-idx3-ubyte.gz, train-/t10k-labels-idx1-ubyte.gz (the original files, canonical md5)",
			Note:    fmt.Sprintf("train is the first %d of MNIST's 60000 training images (to fit the size budget)", mnistTrainRows),
		},
		build: buildMNIST,
	},
	{
		meta: data.Dataset{
			Name:    "mnist-01",
			Title:   "MNIST digits 0 vs 1",
			Kind:    "uint8",
			Cols:    784,
			Shape:   "28×28 grey, row-major; pixel/255 in [0, 1]",
			Classes: []string{"0", "1"},
			Labels:  "digit 0 → 0, digit 1 → 1",
			Scaling: "pixel/255",
			Subset:  "every image labelled 0 or 1, in the original order: train 12665 of the 60000 training images (the paper's set), test 2115 of the 10000 test images",
			Licence: "CC BY-SA 3.0, Y. LeCun and C. Cortes; cite LeCun et al. 1998",
			Source:  "MNIST train-/t10k-images-idx3-ubyte.gz, train-/t10k-labels-idx1-ubyte.gz (the original files, canonical md5)",
		},
		build: buildMNIST01,
	},
	{
		meta: data.Dataset{
			Name:    "fmnist-tshirt-trouser",
			Title:   "Fashion-MNIST T-shirt/top vs Trouser",
			Kind:    "uint8",
			Cols:    784,
			Shape:   "28×28 grey, row-major; pixel/255 in [0, 1]",
			Classes: []string{"T-shirt/top", "Trouser"},
			Labels:  "Fashion-MNIST class 0 (T-shirt/top) → 0, 1 (Trouser) → 1",
			Scaling: "pixel/255",
			Subset:  "every T-shirt/top and Trouser image, in the original order: train 12000 (the paper's set), test 2000",
			Licence: "MIT, Copyright 2017 Zalando SE; cite Xiao, Rasul & Vollgraf 2017",
			Source:  "Fashion-MNIST (Debian dataset-fashion-mnist 0.0~git20200523.55506a9-1, upstream zalandoresearch/fashion-mnist), T-shirt/trouser subset as in ../shared/data",
		},
		build: buildFMNIST,
	},
	{
		meta: data.Dataset{
			Name:    "cifar10-catdog",
			Title:   "CIFAR-10 cat vs dog (partial: 966 of the paper's 10000 images)",
			Kind:    "uint8",
			Cols:    3072,
			Shape:   "32×32 colour: 1024 red, then 1024 green, then 1024 blue bytes, each plane row-major; pixel/255 in [0, 1]",
			Classes: []string{"cat", "dog"},
			Labels:  "CIFAR-10 class 3 (cat) → 0, 5 (dog) → 1",
			Scaling: "pixel/255",
			Subset:  "every cat and dog among the first 4000 images of data_batch_1 (train: 777) and the first 1000 of test_batch (test: 189), in the original order",
			Licence: "no formal licence; cite Krizhevsky, Learning Multiple Layers of Features from Tiny Images, 2009",
			Source:  "CIFAR-10 binary records rebuilt losslessly from the ConvNetJS sprites (GitHub PeterJensen/cnn @7246f8d), checked against the original labels and the first 164 images of each batch",
			Note:    "partial: 777 train + 189 test cat/dog images, not the 10000 the DP-RECAL paper used; no complete CIFAR-10 was available. Results on it are not comparable with the paper's",
		},
		build: buildCatDog,
	},
}

func buildMushrooms(src string) (train, test *data.Set, err error) {
	b, err := readFile(src, "mushrooms/mushrooms")
	if err != nil {
		return nil, nil, err
	}
	p, err := parseLIBSVM("mushrooms", b, 112)
	if err != nil {
		return nil, nil, err
	}
	if p.rows != 8124 {
		return nil, nil, fmt.Errorf("%d rows: want 8124", p.rows)
	}
	y, err := labelMap("mushrooms", p.labels, map[string]uint8{"1": 0, "2": 1})
	if err != nil {
		return nil, nil, err
	}
	train = &data.Set{Split: "train", Cols: 112}
	test = &data.Set{Split: "test", Cols: 112}
	for i := 0; i < p.rows; i++ {
		s := train
		if i%5 == 4 {
			s = test
		}
		for _, v := range p.x[i*112 : (i+1)*112] {
			if v != 0 && v != 1 {
				return nil, nil, fmt.Errorf("row %d: value %g: mushrooms features must be 0 or 1", i+1, v)
			}
			s.Features = append(s.Features, float32(v))
		}
		s.Y = append(s.Y, y[i])
		s.Rows++
	}
	return train, test, nil
}

func buildIJCNN1(src string) (train, test *data.Set, err error) {
	var ps [2]*libsvm
	for k, f := range []string{"ijcnn1/ijcnn1.gz", "ijcnn1/ijcnn1.t.gz"} {
		b, err := readFile(src, f)
		if err != nil {
			return nil, nil, err
		}
		if ps[k], err = parseLIBSVM(f, b, 22); err != nil {
			return nil, nil, err
		}
	}
	if ps[0].rows != 49990 || ps[1].rows != 91701 {
		return nil, nil, fmt.Errorf("%d and %d rows: want 49990 and 91701", ps[0].rows, ps[1].rows)
	}
	tr, te := minMax(ps[0], ps[1])
	var ys [2][]uint8
	for k, p := range ps {
		if ys[k], err = labelMap("ijcnn1", p.labels, map[string]uint8{"-1": 0, "1": 1}); err != nil {
			return nil, nil, err
		}
	}
	return &data.Set{Split: "train", Rows: ps[0].rows, Cols: 22, Features: tr, Y: ys[0]},
		&data.Set{Split: "test", Rows: ps[1].rows, Cols: 22, Features: te, Y: ys[1]}, nil
}

// mnistFiles reads MNIST's train and test images and labels.
func mnistFiles(src string) (ytr, xtr, yte, xte []byte, err error) {
	ytr, xtr, size, err := idxPair(src, "mnist/train-images-idx3-ubyte.gz", "mnist/train-labels-idx1-ubyte.gz")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	yte, xte, size2, err := idxPair(src, "mnist/t10k-images-idx3-ubyte.gz", "mnist/t10k-labels-idx1-ubyte.gz")
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if size != 784 || size2 != 784 || len(ytr) != 60000 || len(yte) != 10000 {
		return nil, nil, nil, nil, fmt.Errorf("MNIST is %d and %d images of %d and %d pixels: want 60000 and 10000 of 784", len(ytr), len(yte), size, size2)
	}
	return ytr, xtr, yte, xte, nil
}

func buildMNIST(src string) (train, test *data.Set, err error) {
	ytr, xtr, yte, xte, err := mnistFiles(src)
	if err != nil {
		return nil, nil, err
	}
	return pixels("train", ytr[:mnistTrainRows], xtr[:mnistTrainRows*784], 784), pixels("test", yte, xte, 784), nil
}

func buildMNIST01(src string) (train, test *data.Set, err error) {
	ytr, xtr, yte, xte, err := mnistFiles(src)
	if err != nil {
		return nil, nil, err
	}
	keep := map[byte]uint8{0: 0, 1: 1}
	y, x := filter(ytr, xtr, 784, keep)
	y2, x2 := filter(yte, xte, 784, keep)
	if len(y) != 12665 {
		return nil, nil, fmt.Errorf("%d training images of 0 or 1: the paper's set has 12665", len(y))
	}
	return pixels("train", y, x, 784), pixels("test", y2, x2, 784), nil
}

func buildFMNIST(src string) (train, test *data.Set, err error) {
	const dir = "fashion-mnist/fashion-mnist-tshirt-trouser-"
	var sets [2]*data.Set
	for k, split := range []string{"train", "t10k"} {
		y, x, size, err := idxPair(src, dir+split+"-images-idx3-ubyte.gz", dir+split+"-labels-idx1-ubyte.gz")
		if err != nil {
			return nil, nil, err
		}
		if size != 784 {
			return nil, nil, fmt.Errorf("%s: %d pixels per image: want 784", split, size)
		}
		y, x = filter(y, x, 784, map[byte]uint8{0: 0, 1: 1})
		sets[k] = pixels([]string{"train", "test"}[k], y, x, 784)
	}
	if sets[0].Rows != 12000 || sets[1].Rows != 2000 {
		return nil, nil, fmt.Errorf("%d and %d T-shirt/trouser images: want 12000 and 2000", sets[0].Rows, sets[1].Rows)
	}
	return sets[0], sets[1], nil
}

func buildCatDog(src string) (train, test *data.Set, err error) {
	var sets [2]*data.Set
	for k, f := range []string{"cifar10/cifar10-data_batch_1-first4000.bin.gz", "cifar10/cifar10-test_batch-first1000.bin.gz"} {
		b, err := readFile(src, f)
		if err != nil {
			return nil, nil, err
		}
		l, x, err := parseCIFAR(f, b)
		if err != nil {
			return nil, nil, err
		}
		y, x := filter(l, x, 3072, map[byte]uint8{3: 0, 5: 1})
		sets[k] = pixels([]string{"train", "test"}[k], y, x, 3072)
	}
	if sets[0].Rows != 777 || sets[1].Rows != 189 {
		return nil, nil, fmt.Errorf("%d and %d cat/dog images: want 777 and 189", sets[0].Rows, sets[1].Rows)
	}
	return sets[0], sets[1], nil
}
