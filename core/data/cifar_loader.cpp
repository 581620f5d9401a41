// CIFAR-10 binary batches (see cifar_loader.h). Sizes are checked from the file sizes
// before the feature matrix is allocated once for all batches.
#include "core/data/cifar_loader.h"

#include "core/common/errors.h"
#include "core/common/memory.h"
#include "core/data/byte_source.h"
#include "core/data/idx_loader.h"

namespace epsilon::data {

std::vector<std::string> cifarStandardClassNames() {
  return {"airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"};
}

long cifarRecordCount(std::size_t byteCount, const std::string& source) {
  if (byteCount == 0) throw DataError(source + ": empty file; expected records of 3073 bytes");
  if (byteCount % kCifarRecordBytes != 0) {
    const std::size_t complete = byteCount / kCifarRecordBytes;
    throw DataError(source + ": truncated or not a CIFAR-10 batch: " + std::to_string(byteCount) +
                    " bytes is not a multiple of the 3073-byte record; record " +
                    std::to_string(complete) + " (offset " +
                    std::to_string(complete * kCifarRecordBytes) + ") has " +
                    std::to_string(byteCount % kCifarRecordBytes) + " of its 3073 bytes");
  }
  const std::size_t count = byteCount / kCifarRecordBytes;
  if (count > 10'000'000)
    throw DataError(source + ": " + std::to_string(count) + " records is absurdly many");
  return static_cast<long>(count);
}

void decodeCifarRecords(std::span<const std::byte> bytes, const std::string& source, long count,
                        Split& into, long firstRow) {
  if (static_cast<std::size_t>(count) * kCifarRecordBytes > bytes.size()) {
    throw DataError(source + ": truncated: expected " + std::to_string(count) +
                    " records of 3073 bytes, found " + std::to_string(bytes.size()) + " bytes");
  }
  for (long record = 0; record < count; ++record) {
    const std::byte* at = bytes.data() + static_cast<std::size_t>(record) * kCifarRecordBytes;
    const int label = static_cast<int>(at[0]);
    if (label >= kCifarClassCount) {
      throw DataError(source + ": label " + std::to_string(label) + " of record " +
                      std::to_string(record) + " (offset " +
                      std::to_string(static_cast<std::size_t>(record) * kCifarRecordBytes) +
                      ") is out of range: expected 0 to 9");
    }
    into.labels[static_cast<std::size_t>(firstRow + record)] = label;
    float* row = into.features.row(firstRow + record).data();
    for (std::size_t i = 0; i < kCifarPixelBytes; ++i)
      row[i] = static_cast<float>(at[1 + i]) / 255.0f;
  }
}

Split parseCifarBatch(std::span<const std::byte> bytes, const std::string& source) {
  const long count = cifarRecordCount(bytes.size(), source);
  Split split;
  split.features.resize(count, static_cast<Eigen::Index>(kCifarPixelBytes));
  split.labels.resize(static_cast<std::size_t>(count));
  decodeCifarRecords(bytes, source, count, split, 0);
  return split;
}

std::vector<std::string> parseCifarClassNames(std::span<const std::byte> bytes,
                                              const std::string& source) {
  std::vector<std::string> names = parseClassNames(bytes, source);
  if (names.size() != kCifarClassCount) {
    throw DataError(source + ": expected 10 class names, one per line, found " +
                    std::to_string(names.size()));
  }
  return names;
}

std::optional<CifarFolderFiles> findCifarFiles(const std::filesystem::path& folder) {
  std::error_code error;
  CifarFolderFiles files;
  for (int batch = 1; batch <= 5; ++batch) {
    const auto path = folder / ("data_batch_" + std::to_string(batch) + ".bin");
    if (std::filesystem::is_regular_file(path, error)) files.trainBatches.push_back(path);
  }
  files.testBatch = folder / "test_batch.bin";
  if (files.trainBatches.empty() || files.trainBatches.front().filename() != "data_batch_1.bin" ||
      !std::filesystem::is_regular_file(files.testBatch, error)) {
    return std::nullopt;
  }
  const auto meta = folder / "batches.meta.txt";
  if (std::filesystem::is_regular_file(meta, error)) files.meta = meta;
  return files;
}

namespace {

long recordsInFile(const std::filesystem::path& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error) throw DataError(path.string() + ": cannot read its size: " + error.message());
  if (size > kMaxDataFileBytes)
    throw DataError(path.string() + ": " + std::to_string(size) + " bytes, more than the " +
                    std::to_string(kMaxDataFileBytes) + " a data file may have");
  return cifarRecordCount(static_cast<std::size_t>(size), path.string());
}

// Reads the given files into one split, allocating once; stops after `limit` records.
Split loadBatches(const std::vector<std::filesystem::path>& paths, long limit) {
  std::vector<long> counts;
  long total = 0;
  for (const auto& path : paths) {
    counts.push_back(recordsInFile(path));
    total += counts.back();
  }
  const long kept = limit > 0 ? std::min(total, limit) : total;
  // Sizes come from the files (sparse files claim what they do not hold): the features are
  // refused before they are allocated when they cannot fit.
  const double need = static_cast<double>(kept) * kCifarPixelBytes * sizeof(float);
  if (need > availableMemoryBytes())
    throw DataError(paths.front().parent_path().string() + ": " + std::to_string(kept) +
                    " CIFAR-10 records need " + memoryText(need) + " of memory, more than the " +
                    memoryText(availableMemoryBytes()) + " here");
  Split split;
  split.features.resize(kept, static_cast<Eigen::Index>(kCifarPixelBytes));
  split.labels.resize(static_cast<std::size_t>(kept));
  long row = 0;
  for (std::size_t i = 0; i < paths.size() && row < kept; ++i) {
    const auto bytes = readFileBytes(paths[i]);
    // The file may have changed since its size was read: check again against the bytes.
    const long count = cifarRecordCount(bytes.size(), paths[i].string());
    if (count != counts[i]) throw DataError(paths[i].string() + ": file changed while being read");
    const long take = std::min(count, kept - row);
    decodeCifarRecords(bytes, paths[i].string(), take, split, row);
    row += take;
  }
  return split;
}

}  // namespace

std::pair<long, long> probeCifarFolder(const CifarFolderFiles& files) {
  long train = 0;
  for (const auto& path : files.trainBatches) train += recordsInFile(path);
  return {train, recordsInFile(files.testBatch)};
}

Dataset loadCifarFolder(const std::filesystem::path& folder, long maxTrain) {
  const auto files = findCifarFiles(folder);
  if (!files) {
    throw DataError(
        folder.string() +
        ": expected CIFAR-10 binary batches data_batch_1.bin (to _5) and test_batch.bin");
  }
  Dataset dataset;
  dataset.name = folder.string();
  dataset.provenance = "CIFAR-10-format binary batches in " + folder.string();
  dataset.shape = SampleShape::image(kCifarChannels, kCifarSide, kCifarSide);
  dataset.classNames = files->meta ? parseCifarClassNames(readFileBytes(*files->meta, 1 << 20),
                                                          files->meta->string())
                                   : cifarStandardClassNames();
  dataset.train = loadBatches(files->trainBatches, maxTrain);
  dataset.test = loadBatches({files->testBatch}, 0);
  return dataset;
}

}  // namespace epsilon::data
