// The names users type for data sets — the embedded ones, the synthetic ones, Fashion-MNIST
// when installed, folders listed in EPSILONLAB_DATA — and loading by name or folder path.
#pragma once

#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/dataset_info.h"

namespace epsilon::data {

// Where Debian's dataset-fashion-mnist package installs the IDX files.
inline constexpr const char* kFashionMnistDirectory = "/usr/share/datasets/fashion-mnist";
// A ':'-separated list of folders; each data folder found there (the folder itself or its
// immediate subfolders) is listed under its folder name.
inline constexpr const char* kDataPathVariable = "EPSILONLAB_DATA";

// Every data set found: embedded, synthetic (sizes for the default options), fashion-mnist
// if installed, then EPSILONLAB_DATA folders. Folders that look like data but cannot be
// read are left out, with one line each in `problems`.
std::vector<DatasetInfo> listDatasets(std::vector<std::string>& problems);
std::vector<DatasetInfo> listDatasets();

// The built-in names (embedded, synthetic, fashion-mnist), installed or not.
std::vector<std::string> builtinDatasetNames();

// Loads a data set by name (see listDatasets) or by folder path (MNIST-format IDX files or
// CIFAR-10 batches). Throws DataError listing the known names for an unknown name, DataError
// naming the file for a malformed one, ConfigError for impossible options.
Dataset loadDataset(const std::string& nameOrPath, const DatasetOptions& options = {});

}  // namespace epsilon::data
