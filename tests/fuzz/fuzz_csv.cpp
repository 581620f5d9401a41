// Fuzz target: the numeric CSV files of the UCI sets, plain or gzip'd: the digits form
// (65 fields a row) and the headered form ("rows,features,class names..."). The first input
// byte picks the parser.
#include "core/data/csv_loader.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace epsilon;
  return fuzz::parseWithFirstByte<2>(
      data, size,
      {[](std::span<const std::byte> body) { data::parseDigitsCsv(body, "fuzz-digits.csv"); },
       [](std::span<const std::byte> body) { data::parseHeaderedCsv(body, "fuzz-table.csv"); }});
}
