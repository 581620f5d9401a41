// The data set registry (see registry.h): names to loaders, and folders to formats.
#include "core/data/registry.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/common/errors.h"
#include "core/common/memory.h"
#include "core/data/byte_source.h"
#include "core/data/cifar_loader.h"
#include "core/data/embedded_files.h"
#include "core/data/embedded_sets.h"
#include "core/data/idx_loader.h"
#include "core/data/split_utils.h"
#include "core/data/synthetic.h"

namespace epsilon::data {

namespace {

namespace fs = std::filesystem;

const char* const kFashionMnistProvenance =
    "Fashion-MNIST by Zalando Research (MIT licence), from Debian's dataset-fashion-mnist package";

std::vector<std::string> fashionMnistClassNames() {
  return {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
          "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
}

enum class FolderFormat { None, Idx, Cifar };

FolderFormat detectFolderFormat(const fs::path& folder) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return FolderFormat::None;
  if (findIdxFiles(folder)) return FolderFormat::Idx;
  if (findCifarFiles(folder)) return FolderFormat::Cifar;
  return FolderFormat::None;
}

std::string folderFormatsText() {
  return "a folder with MNIST-format IDX files (" + idxFileNamesText() +
         ") or CIFAR-10 binary batches (data_batch_1.bin .. data_batch_5.bin, test_batch.bin)";
}

// One split's headers checked as a load checks them before reading a pixel (checkIdxHeader,
// one label per image, a raw file's size against its header), so that a folder is listed
// only with sizes `train` would accept.
IdxHeader probeIdxSplit(const fs::path& imagesPath, const fs::path& labelsPath) {
  const IdxHeader images = probeIdxFile(imagesPath);
  const IdxHeader labels = probeIdxFile(labelsPath);
  if (images.magic != kIdxImagesMagic)
    throw DataError(imagesPath.string() + ": expected an IDX image file (magic 0x00000803)");
  if (labels.magic != kIdxLabelsMagic)
    throw DataError(labelsPath.string() + ": expected an IDX label file (magic 0x00000801)");
  checkIdxHeader(images, imagesPath.string());
  checkIdxHeader(labels, labelsPath.string());
  if (images.count != labels.count)
    throw DataError(imagesPath.string() + " holds " + std::to_string(images.count) +
                    " images but " + labelsPath.string() + " holds " +
                    std::to_string(labels.count) + " labels: expected one label per image");
  const auto checkRawSize = [](const fs::path& path, std::uintmax_t expected) {
    if (hasGzipMagic(readFilePrefix(path, 2))) return;  // its size is known once inflated
    const std::uintmax_t actual = regularFileSize(path);
    if (actual != expected)
      throw DataError(path.string() + ": header declares " + std::to_string(expected) +
                      " bytes, but the file holds " + std::to_string(actual) + " bytes");
  };
  checkRawSize(imagesPath, 16 + static_cast<std::uintmax_t>(images.count) *
                                    static_cast<std::uintmax_t>(images.height) *
                                    static_cast<std::uintmax_t>(images.width));
  checkRawSize(labelsPath, 8 + static_cast<std::uintmax_t>(labels.count));
  return images;
}

DatasetInfo probeFolder(const fs::path& folder, const std::string& name) {
  DatasetInfo info;
  info.name = name;
  info.location = folder.string();
  if (detectFolderFormat(folder) == FolderFormat::Idx) {
    const IdxFolderFiles files = *findIdxFiles(folder);
    const IdxHeader trainImages = probeIdxSplit(files.trainImages, files.trainLabels);
    const IdxHeader testImages = probeIdxSplit(files.testImages, files.testLabels);
    info.trainSize = trainImages.count;
    info.testSize = testImages.count;
    info.shape = SampleShape::image(1, trainImages.height, trainImages.width);
    const fs::path classes = folder / "classes.txt";
    info.classCount =
        fs::is_regular_file(classes)
            ? static_cast<int>(
                  parseClassNames(readFileBytes(classes, 1 << 20), classes.string()).size())
            : 10;
    info.description = "MNIST-format images, " + std::to_string(info.shape.height) + "x" +
                       std::to_string(info.shape.width) + " grey";
    info.provenance = "MNIST-format IDX files in " + folder.string();
  } else {
    const CifarFolderFiles files = *findCifarFiles(folder);
    std::tie(info.trainSize, info.testSize) = probeCifarFolder(files);
    info.shape = SampleShape::image(kCifarChannels, kCifarSide, kCifarSide);
    info.classCount = kCifarClassCount;
    info.description = "CIFAR-10-format colour images, 32x32";
    info.provenance = "CIFAR-10-format binary batches in " + folder.string();
  }
  return info;
}

Dataset loadFolder(const fs::path& folder, long maxTrain) {
  switch (detectFolderFormat(folder)) {
    case FolderFormat::Idx:
      return loadIdxFolder(folder, maxTrain);
    case FolderFormat::Cifar:
      return loadCifarFolder(folder, maxTrain);
    case FolderFormat::None:
      break;
  }
  throw DataError(folder.string() + ": holds no data set; expected " + folderFormatsText());
}

struct DataFolder {
  std::string name;
  fs::path path;
};

// The data folders of EPSILONLAB_DATA, named by their folder name; a name already taken
// (by a built-in set or an earlier folder) is replaced by the folder's path.
std::vector<DataFolder> dataPathFolders(std::vector<std::string>& problems) {
  std::vector<DataFolder> folders;
  const char* variable = std::getenv(kDataPathVariable);
  if (variable == nullptr) return folders;
  const auto builtins = builtinDatasetNames();
  std::set<std::string> taken(builtins.begin(), builtins.end());
  const auto add = [&](const fs::path& path) {
    std::string name = path.filename().string();
    if (name.empty() || taken.contains(name)) name = path.string();
    taken.insert(name);
    folders.push_back({name, path});
  };
  std::string list = variable;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(':', start), list.size());
    const std::string entry = list.substr(start, end - start);
    start = end + 1;
    if (entry.empty()) continue;
    const fs::path root = fs::path(entry).lexically_normal();
    const fs::path folder = root.has_filename() ? root : root.parent_path();
    std::error_code error;
    if (!fs::is_directory(folder, error)) {
      problems.push_back(std::string(kDataPathVariable) + ": '" + entry + "' is not a folder");
      continue;
    }
    if (detectFolderFormat(folder) != FolderFormat::None) {
      add(folder);
      continue;
    }
    std::vector<fs::path> children;
    for (const auto& child :
         fs::directory_iterator(folder, fs::directory_options::skip_permission_denied, error)) {
      if (child.is_directory(error) && detectFolderFormat(child.path()) != FolderFormat::None)
        children.push_back(child.path());
    }
    std::sort(children.begin(), children.end());
    for (const auto& child : children) add(child);
  }
  return folders;
}

DatasetInfo embeddedInfo(const Dataset& dataset, const std::string& description) {
  DatasetInfo info;
  info.name = dataset.name;
  info.description = description;
  info.provenance = dataset.provenance;
  info.location = "embedded";
  info.trainSize = dataset.train.size();
  info.testSize = dataset.test.size();
  info.shape = dataset.shape;
  info.classCount = dataset.classCount();
  return info;
}

DatasetInfo mnist10kInfo() {
  const IdxHeader train =
      probeIdxHeader(embeddedFile("mnist-10k/train-images-idx3-ubyte.gz"), "embedded:mnist-10k");
  const IdxHeader test =
      probeIdxHeader(embeddedFile("mnist-10k/t10k-images-idx3-ubyte.gz"), "embedded:mnist-10k");
  DatasetInfo info;
  info.name = "mnist-10k";
  info.description = "real MNIST handwritten digits, 28x28 grey";
  info.provenance = kMnist10kProvenance;
  info.location = "embedded";
  info.trainSize = train.count;
  info.testSize = test.count;
  info.shape = SampleShape::image(1, train.height, train.width);
  info.classCount = 10;
  return info;
}

}  // namespace

std::vector<std::string> builtinDatasetNames() {
  std::vector<std::string> names = {"mnist-10k", "uci-digits", "breast-cancer"};
  for (const SyntheticKind kind : allSyntheticKinds()) names.emplace_back(syntheticName(kind));
  names.emplace_back("fashion-mnist");
  return names;
}

namespace {

// The sets built into the program never change: they are described once per process (parsing
// the digits' CSV took most of a planInput, which opening 10,000 runs asks for many times).
const std::vector<DatasetInfo>& embeddedInfos() {
  static const std::vector<DatasetInfo> infos{
      mnist10kInfo(), embeddedInfo(loadUciDigits(), "UCI handwritten digits, 8x8 grey"),
      embeddedInfo(loadBreastCancer(),
                   "UCI breast cancer: 30 tumour measurements, malignant or benign")};
  return infos;
}

}  // namespace

std::vector<DatasetInfo> listDatasets(std::vector<std::string>& problems) {
  std::vector<DatasetInfo> infos = embeddedInfos();
  const DatasetOptions defaults;
  for (const SyntheticKind kind : allSyntheticKinds()) {
    DatasetInfo info;
    info.name = std::string(syntheticName(kind));
    info.description = std::string(syntheticDescription(kind));
    info.provenance =
        "synthetic, after TensorFlow Playground (Smilkov, Carter et al.); deterministic for a seed";
    info.location = "generated";
    std::tie(info.trainSize, info.testSize) = syntheticSplitSizes(defaults);
    info.shape = SampleShape::features(2);
    info.classCount = 2;
    info.synthetic = true;
    infos.push_back(info);
  }
  const auto tryFolder = [&](const fs::path& folder, const std::string& name,
                             const std::string& description, const std::string& provenance) {
    try {
      DatasetInfo info = probeFolder(folder, name);
      if (!description.empty()) info.description = description;
      if (!provenance.empty()) info.provenance = provenance;
      infos.push_back(info);
    } catch (const DataError& error) {
      problems.push_back(name + ": " + error.what());
    }
  };
  if (detectFolderFormat(kFashionMnistDirectory) == FolderFormat::Idx) {
    tryFolder(kFashionMnistDirectory, "fashion-mnist", "Zalando article images, 28x28 grey",
              kFashionMnistProvenance);
  }
  for (const DataFolder& folder : dataPathFolders(problems))
    tryFolder(folder.path, folder.name, "", "");
  return infos;
}

std::vector<DatasetInfo> listDatasets() {
  std::vector<std::string> ignored;
  return listDatasets(ignored);
}

namespace {

Dataset loadWholeDataset(const std::string& nameOrPath, const DatasetOptions& options) {
  if (nameOrPath == "mnist-10k") return loadMnist10k(options.maxTrain);
  if (nameOrPath == "uci-digits") return loadUciDigits(options.maxTrain);
  if (nameOrPath == "breast-cancer") return loadBreastCancer(options.maxTrain);
  if (const auto kind = syntheticKindFromName(nameOrPath)) {
    Dataset dataset = makeSyntheticDataset(*kind, options);
    keepFirst(dataset.train, options.maxTrain);
    return dataset;
  }
  if (nameOrPath == "fashion-mnist") {
    if (detectFolderFormat(kFashionMnistDirectory) != FolderFormat::Idx) {
      throw DataError(std::string("fashion-mnist is not installed: expected ") +
                      idxFileNamesText() + " in " + kFashionMnistDirectory +
                      " (Debian package dataset-fashion-mnist)");
    }
    Dataset dataset = loadIdxFolder(kFashionMnistDirectory, options.maxTrain);
    dataset.name = "fashion-mnist";
    dataset.provenance = kFashionMnistProvenance;
    dataset.classNames = fashionMnistClassNames();
    return dataset;
  }
  std::vector<std::string> problems;
  for (const DataFolder& folder : dataPathFolders(problems)) {
    if (folder.name == nameOrPath) {
      Dataset dataset = loadFolder(folder.path, options.maxTrain);
      dataset.name = folder.name;
      return dataset;
    }
  }
  std::error_code error;
  if (!nameOrPath.empty() && fs::is_directory(nameOrPath, error)) {
    Dataset dataset = loadFolder(nameOrPath, options.maxTrain);
    dataset.name = nameOrPath;
    return dataset;
  }
  std::string known;
  for (const std::string& name : builtinDatasetNames()) known += (known.empty() ? "" : ", ") + name;
  for (const DataFolder& folder : dataPathFolders(problems)) known += ", " + folder.name;
  throw DataError("unknown data set '" + nameOrPath + "': expected one of " + known + ", or " +
                  folderFormatsText());
}

}  // namespace

Dataset loadDataset(const std::string& nameOrPath, const DatasetOptions& options) {
  if (options.maxTrain < 0) {
    throw ConfigError("dataset maxTrain: expected 0 (all) or a positive count, got " +
                      std::to_string(options.maxTrain));
  }
  if (!(options.minorityKeep >= 0.0 && options.minorityKeep <= 1.0))
    throw ConfigError("dataset.minority_keep: expected a share in [0, 1], got " +
                      std::to_string(options.minorityKeep));
  Dataset dataset = loadWholeDataset(nameOrPath, options);
  if (options.minorityClass >= 0) {
    if (options.minorityClass >= dataset.classCount())
      throw ConfigError("dataset.minority_class: expected a class in [0, " +
                        std::to_string(dataset.classCount() - 1) + "] of " + dataset.name +
                        ", got " + std::to_string(options.minorityClass));
    keepFractionOfClass(dataset.train, options.minorityClass, options.minorityKeep);
  }
  adviseHugePages(dataset.train.features.data(),
                  static_cast<std::size_t>(dataset.train.features.size()) * sizeof(float));
  return dataset;
}

}  // namespace epsilon::data
