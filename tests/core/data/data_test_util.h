// Helpers for the core/data suites: build IDX, CIFAR and gzip byte buffers in memory,
// write them to files, and catch a DataError's message.
#pragma once

#include <zlib.h>

#include <QByteArray>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/common/errors.h"

namespace epsilon::data::testing {

using Bytes = std::vector<std::byte>;

inline void appendBigEndian32(Bytes& bytes, std::uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8)
    bytes.push_back(static_cast<std::byte>((value >> shift) & 0xff));
}

// Pixel (image i, position p) = (7 i + 3 p) mod 256: every image differs, every byte value occurs.
inline std::uint8_t patternPixel(std::size_t image, std::size_t position) {
  return static_cast<std::uint8_t>((7 * image + 3 * position) % 256);
}

// The 16-byte header of an IDX image file alone.
inline Bytes idxImageHeader(std::uint32_t count, std::uint32_t rows, std::uint32_t cols,
                            std::uint32_t magic = 0x00000803) {
  Bytes bytes;
  appendBigEndian32(bytes, magic);
  appendBigEndian32(bytes, count);
  appendBigEndian32(bytes, rows);
  appendBigEndian32(bytes, cols);
  return bytes;
}

inline Bytes idxImages(std::uint32_t count, std::uint32_t rows, std::uint32_t cols,
                       std::uint32_t magic = 0x00000803) {
  Bytes bytes = idxImageHeader(count, rows, cols, magic);
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t p = 0; p < std::size_t{rows} * cols; ++p)
      bytes.push_back(static_cast<std::byte>(patternPixel(i, p)));
  }
  return bytes;
}

inline Bytes idxLabels(const std::vector<int>& labels, std::uint32_t magic = 0x00000801) {
  Bytes bytes;
  appendBigEndian32(bytes, magic);
  appendBigEndian32(bytes, static_cast<std::uint32_t>(labels.size()));
  for (const int label : labels) bytes.push_back(static_cast<std::byte>(label));
  return bytes;
}

// One CIFAR-10 record: label then 3072 pixels, pixel p = (label + 5 p) mod 256.
inline void appendCifarRecord(Bytes& bytes, int label) {
  bytes.push_back(static_cast<std::byte>(label));
  for (std::size_t p = 0; p < 3072; ++p)
    bytes.push_back(static_cast<std::byte>((label + 5 * p) % 256));
}

inline Bytes cifarBatch(const std::vector<int>& labels) {
  Bytes bytes;
  for (const int label : labels) appendCifarRecord(bytes, label);
  return bytes;
}

// A gzip member (zlib deflate with the gzip wrapper: windowBits 16 + 15).
inline Bytes gzip(const Bytes& raw) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  Bytes out(deflateBound(&stream, raw.size()) + 32);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(raw.data()));
  stream.avail_in = static_cast<uInt>(raw.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw std::runtime_error("deflate failed");
  out.resize(out.size() - stream.avail_out);
  return out;
}

inline Bytes textBytes(const std::string& text) {
  Bytes bytes;
  for (const char c : text) bytes.push_back(static_cast<std::byte>(c));
  return bytes;
}

inline void writeFile(const std::filesystem::path& path, const Bytes& bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  if (!file) throw std::runtime_error("cannot write " + path.string());
}

// The message of the DataError `action` throws, or "" if it throws none.
template <class Action>
QString dataErrorOf(Action&& action) {
  try {
    action();
  } catch (const epsilon::DataError& error) {
    return QString::fromStdString(error.what());
  }
  return {};
}

inline QByteArray toQByteArray(const Bytes& bytes) {
  return QByteArray(reinterpret_cast<const char*>(bytes.data()),
                    static_cast<qsizetype>(bytes.size()));
}

inline Bytes fromQByteArray(const QByteArray& array) {
  const auto* begin = reinterpret_cast<const std::byte*>(array.constData());
  return Bytes(begin, begin + array.size());
}

}  // namespace epsilon::data::testing
