// MNIST-format IDX files (LeCun et al., "THE MNIST DATABASE"): a big-endian header — magic
// 0x00000803 and three dimensions for images, 0x00000801 and one for labels — then
// unsigned bytes; raw or gzip'd. Headers are checked against the file before allocating.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace epsilon::data {

inline constexpr std::uint32_t kIdxImagesMagic = 0x00000803;  // unsigned byte, 3 dimensions
inline constexpr std::uint32_t kIdxLabelsMagic = 0x00000801;  // unsigned byte, 1 dimension
inline constexpr long kIdxMaxCount = 10'000'000;              // no real IDX set comes close
inline constexpr int kIdxMaxSide = 4096;

// Images as rows of height × width pixels scaled to [0, 1] (byte / 255).
struct IdxImages {
  FeatureMatrix pixels;
  int height = 0;
  int width = 0;
  long declaredCount = 0;  // images in the file (pixels may hold fewer, see maxCount)
};

struct IdxLabels {
  std::vector<int> labels;
  long declaredCount = 0;
};

// What an IDX header declares, read without decoding the body (for listings).
struct IdxHeader {
  std::uint32_t magic = 0;
  long count = 0;
  int height = 0;  // 0 for a label file
  int width = 0;
};

// Parses an IDX image file (raw or gzip). maxCount > 0 keeps only the first maxCount
// images; the rest of the file is still read and checked.
IdxImages parseIdxImages(std::span<const std::byte> bytes, const std::string& source,
                         long maxCount = 0);

// Parses an IDX label file; every label must lie in [0, classCount).
IdxLabels parseIdxLabels(std::span<const std::byte> bytes, const std::string& source,
                         int classCount, long maxCount = 0);

// Pairs images with labels; throws DataError if the files' counts differ.
Split makeIdxSplit(IdxImages images, IdxLabels labels, const std::string& imagesSource,
                   const std::string& labelsSource);

// The header's counts and sides against what a load accepts (the one rule for `train` and for
// `datasets`' listing): throws DataError "<source>: header declares …; expected … to …".
void checkIdxHeader(const IdxHeader& header, const std::string& source);

// Reads the header of an IDX file (raw or gzip) from its first bytes only.
IdxHeader probeIdxHeader(std::span<const std::byte> prefix, const std::string& source);
IdxHeader probeIdxFile(const std::filesystem::path& path);

// The four files of an MNIST-format folder: the standard names, each raw or with .gz.
struct IdxFolderFiles {
  std::filesystem::path trainImages, trainLabels, testImages, testLabels;
};

// Finds the four files in `folder` (raw preferred when both exist); nullopt if any is missing.
std::optional<IdxFolderFiles> findIdxFiles(const std::filesystem::path& folder);

// The standard file names, for messages.
std::string idxFileNamesText();

// Loads an MNIST-format folder: 10 classes unless a classes.txt beside the files lists the
// class names, one per line. maxTrain > 0 keeps the first maxTrain train examples.
Dataset loadIdxFolder(const std::filesystem::path& folder, long maxTrain = 0);

// Reads a class-name list (one non-empty line each); throws DataError if it has fewer than two.
std::vector<std::string> parseClassNames(std::span<const std::byte> bytes,
                                         const std::string& source);

}  // namespace epsilon::data
