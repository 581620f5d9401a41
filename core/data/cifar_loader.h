// CIFAR-10 binary batches (Krizhevsky 2009, "Learning Multiple Layers of Features from Tiny
// Images"; the "binary version" layout): no header, records of 1 label byte and 3072 pixel
// bytes, 1024 red then 1024 green then 1024 blue, each a row-major 32×32 plane.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace epsilon::data {

inline constexpr int kCifarSide = 32;
inline constexpr int kCifarChannels = 3;
inline constexpr std::size_t kCifarPixelBytes = kCifarChannels * kCifarSide * kCifarSide;
inline constexpr std::size_t kCifarRecordBytes = 1 + kCifarPixelBytes;
inline constexpr int kCifarClassCount = 10;

// The ten class names of CIFAR-10, in label order.
std::vector<std::string> cifarStandardClassNames();

// Records in a batch of byteCount bytes; throws DataError if the size is not a positive
// multiple of 3073 (a truncated batch).
long cifarRecordCount(std::size_t byteCount, const std::string& source);

// Parses one batch: pixels scaled to [0, 1] (byte / 255) in C×H×W order.
Split parseCifarBatch(std::span<const std::byte> bytes, const std::string& source);

// Decodes `count` records of a batch into rows [firstRow, firstRow + count) of `into`.
void decodeCifarRecords(std::span<const std::byte> bytes, const std::string& source, long count,
                        Split& into, long firstRow);

// Class names from batches.meta.txt (one per line, blank lines ignored); exactly 10.
std::vector<std::string> parseCifarClassNames(std::span<const std::byte> bytes,
                                              const std::string& source);

struct CifarFolderFiles {
  std::vector<std::filesystem::path> trainBatches;  // data_batch_1.bin .. data_batch_5.bin present
  std::filesystem::path testBatch;                  // test_batch.bin
  std::optional<std::filesystem::path> meta;        // batches.meta.txt
};

// Finds the batches in `folder`; nullopt unless data_batch_1.bin and test_batch.bin exist.
std::optional<CifarFolderFiles> findCifarFiles(const std::filesystem::path& folder);

// Train and test sizes from the files' sizes alone (for listings); throws like loading.
std::pair<long, long> probeCifarFolder(const CifarFolderFiles& files);

// Loads a CIFAR-10 folder; maxTrain > 0 keeps the first maxTrain train records (later
// batches are then not read at all).
Dataset loadCifarFolder(const std::filesystem::path& folder, long maxTrain = 0);

}  // namespace epsilon::data
