// IDX parsing (see idx_loader.h). Each header is validated against the file's real content
// size before the body is allocated; every failure names the file and what was wrong.
#include "core/data/idx_loader.h"

#include <array>
#include <cstdio>
#include <limits>

#include "core/common/errors.h"
#include "core/common/memory.h"
#include "core/data/byte_source.h"

namespace epsilon::data {

namespace {

std::string hex32(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

// Names what a magic number looks like, so "wrong magic" says what the file probably is.
std::string describeMagic(std::uint32_t magic) {
  if (magic == kIdxImagesMagic) return " (IDX images)";
  if (magic == kIdxLabelsMagic) return " (IDX labels)";
  if ((magic >> 16) == 0x1f8b) return " (gzip data in a file not named .gz?)";
  if ((magic >> 16) == 0) {
    char text[48];
    std::snprintf(text, sizeof text, " (IDX type 0x%02x, %u dimensions)", (magic >> 8) & 0xff,
                  magic & 0xff);
    return text;
  }
  return "";
}

// Reads the magic and `dimensions` big-endian sizes, checking the magic.
std::vector<std::uint32_t> readHeader(DataInput& input, std::uint32_t expectedMagic, int dimensions,
                                      const char* kind) {
  std::array<std::byte, 4> word{};
  input.read(word, "IDX magic number");
  const std::uint32_t magic = readBigEndian32(word.data());
  if (magic != expectedMagic) {
    throw DataError(input.source() + ": wrong magic number for IDX " + kind + ": expected " +
                    hex32(expectedMagic) + describeMagic(expectedMagic) + ", found " +
                    hex32(magic) + describeMagic(magic));
  }
  std::vector<std::uint32_t> sizes;
  for (int d = 0; d < dimensions; ++d) {
    input.read(word, "IDX dimension " + std::to_string(d));
    sizes.push_back(readBigEndian32(word.data()));
  }
  return sizes;
}

void checkRange(const std::string& source, const char* what, long value, long low, long high) {
  if (value < low || value > high) {
    throw DataError(source + ": header declares " + std::to_string(value) + " " + what +
                    "; expected " + std::to_string(low) + " to " + std::to_string(high));
  }
}

// The header's total against the content size: a mismatch reports what the file holds.
void checkTotalSize(DataInput& input, std::size_t expected, const std::string& declared) {
  if (input.size() == expected) return;
  const std::size_t actual = input.measureSize();  // may itself throw "truncated gzip"
  throw DataError(input.source() + ": header declares " + declared + " = " +
                  std::to_string(expected) + " bytes, but the file holds " +
                  std::to_string(actual) + " bytes" +
                  (actual < expected ? " (truncated)" : " (extra data after the last item)"));
}

const std::array<float, 256>& byteToUnit() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> values{};
    for (int i = 0; i < 256; ++i)
      values[static_cast<std::size_t>(i)] = static_cast<float>(i) / 255.0f;
    return values;
  }();
  return table;
}

// A side as the header declares it (an int holds any a message may quote).
constexpr std::uint32_t kIntMax = std::numeric_limits<int>::max();

long keptCount(long declared, long maxCount) {
  return maxCount > 0 ? std::min(declared, maxCount) : declared;
}

}  // namespace

IdxImages parseIdxImages(std::span<const std::byte> bytes, const std::string& source,
                         long maxCount) {
  DataInput input(bytes, source);
  const auto sizes = readHeader(input, kIdxImagesMagic, 3, "images");
  checkIdxHeader(
      {kIdxImagesMagic, sizes[0], static_cast<int>(std::min<std::uint32_t>(sizes[1], kIntMax)),
       static_cast<int>(std::min<std::uint32_t>(sizes[2], kIntMax))},
      source);
  const std::size_t count = sizes[0];
  const std::size_t pixelsPerImage = std::size_t{sizes[1]} * sizes[2];
  const std::size_t expected = 16 + count * pixelsPerImage;
  if (expected > kMaxDataFileBytes) {
    throw DataError(source + ": header declares " + std::to_string(count) + " images of " +
                    std::to_string(sizes[1]) + "x" + std::to_string(sizes[2]) +
                    " pixels, more than the " + std::to_string(kMaxDataFileBytes) +
                    " bytes a data file may have");
  }
  const std::string declared = std::to_string(count) + " images of " + std::to_string(sizes[1]) +
                               "x" + std::to_string(sizes[2]) + " pixels + 16-byte header";
  checkTotalSize(input, expected, declared);

  IdxImages images;
  images.height = static_cast<int>(sizes[1]);
  images.width = static_cast<int>(sizes[2]);
  images.declaredCount = static_cast<long>(count);
  const long kept = keptCount(images.declaredCount, maxCount);
  images.pixels.resize(kept, static_cast<Eigen::Index>(pixelsPerImage));
  // Before the first write, so the pages are huge from the start (loadDataset's own advice
  // then finds nothing left to move).
  adviseHugePages(images.pixels.data(),
                  static_cast<std::size_t>(images.pixels.size()) * sizeof(float));
  const auto& table = byteToUnit();
  float* out = images.pixels.data();
  input.consume(static_cast<std::size_t>(kept) * pixelsPerImage, "pixels",
                [&](std::span<const std::byte> chunk) {
                  for (const std::byte value : chunk)
                    *out++ = table[static_cast<std::size_t>(value)];
                });
  // The images left out by maxCount are still read, so a corrupt tail is still reported.
  input.consume((count - static_cast<std::size_t>(kept)) * pixelsPerImage, "pixels", [](auto) {});
  input.expectEnd();
  return images;
}

IdxLabels parseIdxLabels(std::span<const std::byte> bytes, const std::string& source,
                         int classCount, long maxCount) {
  DataInput input(bytes, source);
  const auto sizes = readHeader(input, kIdxLabelsMagic, 1, "labels");
  checkIdxHeader({kIdxLabelsMagic, sizes[0], 0, 0}, source);
  const std::size_t count = sizes[0];
  checkTotalSize(input, 8 + count, std::to_string(count) + " labels + 8-byte header");

  IdxLabels labels;
  labels.declaredCount = static_cast<long>(count);
  const std::size_t kept = static_cast<std::size_t>(keptCount(labels.declaredCount, maxCount));
  labels.labels.reserve(kept);
  std::size_t index = 0;
  input.consume(count, "labels", [&](std::span<const std::byte> chunk) {
    for (const std::byte value : chunk) {
      const int label = static_cast<int>(value);
      if (label >= classCount) {
        throw DataError(source + ": label " + std::to_string(label) + " of example " +
                        std::to_string(index) + " (offset " + std::to_string(8 + index) +
                        ") is out of range: expected 0 to " + std::to_string(classCount - 1));
      }
      if (index < kept) labels.labels.push_back(label);
      ++index;
    }
  });
  input.expectEnd();
  return labels;
}

Split makeIdxSplit(IdxImages images, IdxLabels labels, const std::string& imagesSource,
                   const std::string& labelsSource) {
  if (images.declaredCount != labels.declaredCount) {
    throw DataError(imagesSource + " holds " + std::to_string(images.declaredCount) +
                    " images but " + labelsSource + " holds " +
                    std::to_string(labels.declaredCount) + " labels: expected one label per image");
  }
  Split split;
  split.features = std::move(images.pixels);
  split.labels = std::move(labels.labels);
  return split;
}

void checkIdxHeader(const IdxHeader& header, const std::string& source) {
  const bool images = header.magic == kIdxImagesMagic;
  checkRange(source, images ? "images" : "labels", header.count, 1, kIdxMaxCount);
  if (!images) return;
  checkRange(source, "rows per image", header.height, 1, kIdxMaxSide);
  checkRange(source, "columns per image", header.width, 1, kIdxMaxSide);
}

IdxHeader probeIdxHeader(std::span<const std::byte> prefix, const std::string& source) {
  std::vector<std::byte> header;
  if (hasGzipMagic(prefix)) {
    header = gunzipPrefix(prefix, source, 16);
  } else {
    header.assign(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(
                                                       std::min<std::size_t>(prefix.size(), 16)));
  }
  if (header.size() < 8)
    throw DataError(source + ": truncated: an IDX header needs at least 8 bytes");
  IdxHeader result;
  result.magic = readBigEndian32(header.data());
  if (result.magic != kIdxImagesMagic && result.magic != kIdxLabelsMagic) {
    throw DataError(source + ": wrong magic number: expected " + hex32(kIdxImagesMagic) + " or " +
                    hex32(kIdxLabelsMagic) + ", found " + hex32(result.magic) +
                    describeMagic(result.magic));
  }
  result.count = readBigEndian32(header.data() + 4);
  if (result.magic == kIdxImagesMagic) {
    if (header.size() < 16)
      throw DataError(source + ": truncated: an IDX image header needs 16 bytes");
    result.height =
        static_cast<int>(std::min<std::uint32_t>(readBigEndian32(header.data() + 8), kIntMax));
    result.width =
        static_cast<int>(std::min<std::uint32_t>(readBigEndian32(header.data() + 12), kIntMax));
  }
  return result;
}

IdxHeader probeIdxFile(const std::filesystem::path& path) {
  return probeIdxHeader(readFilePrefix(path, std::size_t{1} << 16), path.string());
}

std::optional<IdxFolderFiles> findIdxFiles(const std::filesystem::path& folder) {
  const auto find = [&](const char* base) -> std::filesystem::path {
    std::error_code error;
    for (const std::string& name : {std::string(base), std::string(base) + ".gz"}) {
      const auto candidate = folder / name;
      if (std::filesystem::is_regular_file(candidate, error)) return candidate;
    }
    return {};
  };
  IdxFolderFiles files{find("train-images-idx3-ubyte"), find("train-labels-idx1-ubyte"),
                       find("t10k-images-idx3-ubyte"), find("t10k-labels-idx1-ubyte")};
  if (files.trainImages.empty() || files.trainLabels.empty() || files.testImages.empty() ||
      files.testLabels.empty()) {
    return std::nullopt;
  }
  return files;
}

std::string idxFileNamesText() {
  return "train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, "
         "t10k-labels-idx1-ubyte "
         "(each raw or .gz)";
}

std::vector<std::string> parseClassNames(std::span<const std::byte> bytes,
                                         const std::string& source) {
  std::vector<std::string> names;
  std::string line;
  const auto flush = [&] {
    const auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos)
      names.push_back(line.substr(first, line.find_last_not_of(" \t\r") - first + 1));
    line.clear();
  };
  for (const std::byte value : bytes) {
    if (value == std::byte{'\n'}) {
      flush();
    } else {
      line.push_back(static_cast<char>(value));
    }
  }
  flush();
  if (names.size() < 2) {
    throw DataError(source + ": expected at least 2 class names, one per line, found " +
                    std::to_string(names.size()));
  }
  return names;
}

Dataset loadIdxFolder(const std::filesystem::path& folder, long maxTrain) {
  const auto files = findIdxFiles(folder);
  if (!files)
    throw DataError(folder.string() + ": expected the MNIST-format files " + idxFileNamesText());
  Dataset dataset;
  dataset.name = folder.string();
  dataset.provenance = "MNIST-format IDX files in " + folder.string();
  const auto classesFile = folder / "classes.txt";
  if (std::filesystem::is_regular_file(classesFile)) {
    dataset.classNames = parseClassNames(readFileBytes(classesFile, 1 << 20), classesFile.string());
  } else {
    for (int digit = 0; digit < 10; ++digit) dataset.classNames.push_back(std::to_string(digit));
  }
  const int classCount = dataset.classCount();
  const auto loadSplit = [&](const std::filesystem::path& imagesPath,
                             const std::filesystem::path& labelsPath, long maxCount) {
    IdxImages images = parseIdxImages(readFileBytes(imagesPath), imagesPath.string(), maxCount);
    IdxLabels labels =
        parseIdxLabels(readFileBytes(labelsPath), labelsPath.string(), classCount, maxCount);
    dataset.shape = SampleShape::image(1, images.height, images.width);
    return makeIdxSplit(std::move(images), std::move(labels), imagesPath.string(),
                        labelsPath.string());
  };
  dataset.test = loadSplit(files->testImages, files->testLabels, 0);
  const SampleShape testShape = dataset.shape;
  dataset.train = loadSplit(files->trainImages, files->trainLabels, maxTrain);
  if (!(dataset.shape == testShape)) {
    throw DataError(files->testImages.string() + ": images are " +
                    std::to_string(testShape.height) + "x" + std::to_string(testShape.width) +
                    " but the train images are " + std::to_string(dataset.shape.height) + "x" +
                    std::to_string(dataset.shape.width));
  }
  return dataset;
}

}  // namespace epsilon::data
