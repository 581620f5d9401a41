// The parsing half of the one reader (json_reader.h): a file's bytes as one JSON object, with
// the key given twice found by one walk over the text's structure, and a big file's top-level
// arrays parsed in parallel pieces that give the same object and the same errors.
#include <QJsonDocument>
#include <algorithm>
#include <atomic>
#include <string>
#include <string_view>
#include <utility>

#include "base/io/json_reader.h"
#include "core/common/parallel.h"

namespace epsilon::ui {

namespace {

// One open object or array while scanning for duplicate keys: an object's keys so far (raw,
// or decoded when escaped, so "a" and "\u0061" are the same key) and the key being read; an
// array's index.
struct JsonScope {
  bool object = false;
  bool expectKey = false;
  std::vector<std::string> keys;
  std::string key;
  qsizetype index = 0;
};

std::string decodedKey(std::string_view raw) {
  if (raw.find('\\') == std::string_view::npos) return std::string(raw);
  const QByteArray wrapped =
      "[\"" + QByteArray(raw.data(), static_cast<qsizetype>(raw.size())) + "\"]";
  return QJsonDocument::fromJson(wrapped).array().at(0).toString().toStdString();
}

QString scopePath(const std::vector<JsonScope>& scopes, const std::string& last) {
  QString path;
  for (std::size_t i = 0; i + 1 < scopes.size(); ++i) {
    if (!scopes[i].object)
      path += QStringLiteral("[%1]").arg(scopes[i].index);
    else
      path += (path.isEmpty() ? QString() : QStringLiteral(".")) +
              QString::fromStdString(scopes[i].key);
  }
  return path + (path.isEmpty() ? QString() : QStringLiteral(".")) + QString::fromStdString(last);
}

// The sorted keys of a closing object: the first one given twice, if any.
const std::string* repeatedKey(std::vector<std::string>& keys) {
  std::sort(keys.begin(), keys.end());
  const auto found = std::adjacent_find(keys.begin(), keys.end());
  return found == keys.end() ? nullptr : &*found;
}

// The one walk over a JSON text's structure: visit(i, c, stringEnd) for each bracket, comma
// and string outside strings, stringEnd being the index of a string's closing quote (n when
// unterminated; an escaped quote does not end it). Stops when visit returns false.
template <class Visit>
bool walkJson(const char* s, qsizetype n, Visit&& visit) {
  for (qsizetype i = 0; i < n; ++i) {
    switch (s[i]) {
      case '{':
      case '[':
      case '}':
      case ']':
      case ',':
        if (!visit(i, s[i], i)) return false;
        break;
      case '"': {
        qsizetype end = i + 1;
        while (end < n && s[end] != '"') end += s[end] == '\\' ? 2 : 1;
        end = std::min(end, n);
        if (!visit(i, s[i], end)) return false;
        i = end;
        break;
      }
      default:
        break;
    }
  }
  return true;
}

}  // namespace

std::optional<QString> firstDuplicateKey(const QByteArray& json) {
  std::vector<JsonScope> scopes;
  std::optional<QString> found;
  const char* s = json.constData();
  walkJson(s, json.size(), [&](qsizetype i, char c, qsizetype end) {
    switch (c) {
      case '{':
      case '[':
        scopes.push_back({c == '{', c == '{', {}, {}, 0});
        return true;
      case '}':
      case ']':
        if (scopes.empty()) return false;  // not JSON: the parser reports it
        if (scopes.back().object)
          if (const std::string* key = repeatedKey(scopes.back().keys)) {
            found = scopePath(scopes, *key);
            return false;
          }
        scopes.pop_back();
        return true;
      case ',':
        if (!scopes.empty()) {
          if (scopes.back().object)
            scopes.back().expectKey = true;
          else
            ++scopes.back().index;
        }
        return true;
      default:  // a string
        if (!scopes.empty() && scopes.back().expectKey) {
          JsonScope& scope = scopes.back();
          scope.key =
              decodedKey(std::string_view(s + i + 1, static_cast<std::size_t>(end - i - 1)));
          scope.keys.push_back(scope.key);
          scope.expectKey = false;
        }
        return true;
    }
  });
  return found;
}

namespace {

ConfigError duplicateKeyError(const QString& path, const QString& key) {
  return fileError(
      path, QStringLiteral("%1: given twice (a key may appear once per object)").arg(clipped(key)));
}

// An array that is the value of a member of the top-level object, and where its elements are.
struct TopArray {
  QString key;
  qsizetype open = 0;                                  // its '['
  qsizetype close = 0;                                 // its ']'
  std::vector<std::pair<qsizetype, qsizetype>> items;  // [begin, end) of each element
};

bool blank(const char* s, qsizetype begin, qsizetype end) {
  return std::all_of(s + begin, s + end,
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

// The arrays of the top-level object's members, cut at their elements' commas; nothing when the
// text is not one object with balanced brackets (the whole parse then says what is wrong).
std::optional<std::vector<TopArray>> topLevelArrays(const QByteArray& json) {
  std::vector<TopArray> arrays;
  std::string open;  // the brackets open, outermost first
  bool expectKey = false, seenTop = false;
  QString key;
  qsizetype itemBegin = 0;
  const char* s = json.constData();
  const bool shaped = walkJson(s, json.size(), [&](qsizetype i, char c, qsizetype end) {
    const std::size_t depth = open.size();
    const bool inTopArray = depth == 2 && open[1] == '[';
    switch (c) {
      case '{':
      case '[':
        if (depth == 0 && (seenTop || c != '{')) return false;
        seenTop = true;
        expectKey = depth == 0;
        if (depth == 1 && c == '[') {
          arrays.push_back({key, i, 0, {}});
          itemBegin = i + 1;
        }
        open.push_back(c);
        return true;
      case '}':
      case ']':
        if (depth == 0 || open.back() != (c == '}' ? '{' : '[')) return false;
        if (inTopArray) {
          if (!arrays.back().items.empty() || !blank(s, itemBegin, i))
            arrays.back().items.emplace_back(itemBegin, i);
          arrays.back().close = i;
        }
        open.pop_back();
        return true;
      case ',':
        expectKey = depth == 1;
        if (inTopArray) {
          arrays.back().items.emplace_back(itemBegin, i);
          itemBegin = i + 1;
        }
        return true;
      default:  // a string
        if (depth == 1 && expectKey)
          key = QString::fromStdString(
              decodedKey(std::string_view(s + i + 1, static_cast<std::size_t>(end - i - 1))));
        expectKey = false;
        return true;
    }
  });
  if (!shaped || !open.empty()) return std::nullopt;
  return arrays;
}

// One element parsed alone, at the depth it has in the file ([[element]]: Qt's parser limits
// nesting); nothing when it is not one valid value.
std::optional<QJsonValue> parseElement(const char* s, std::pair<qsizetype, qsizetype> span) {
  QByteArray wrapped;
  wrapped.reserve(span.second - span.first + 4);
  wrapped.append("[[").append(s + span.first, span.second - span.first).append("]]");
  QJsonParseError parse;
  const QJsonArray outer = QJsonDocument::fromJson(wrapped, &parse).array();
  if (parse.error != QJsonParseError::NoError || outer.size() != 1) return std::nullopt;
  const QJsonArray inner = outer.at(0).toArray();
  if (inner.size() != 1) return std::nullopt;
  return inner.at(0);
}

// A big file read as one parse was most of opening 10,000 runs: the elements of its top-level
// arrays (a session's runs) are parsed and checked for repeated keys in parallel, the rest as
// one small object. Only a text that is valid in every piece is taken this way: anything else
// is left to the whole parse, so every error, its offset and its order are the whole parse's.
std::optional<QJsonObject> parseInPieces(const QByteArray& bytes, const QString& path) {
  const std::optional<std::vector<TopArray>> arrays = topLevelArrays(bytes);
  if (!arrays || arrays->empty()) return std::nullopt;
  QByteArray skeleton;                                      // the file with those arrays emptied
  std::vector<std::pair<std::size_t, std::size_t>> pieces;  // (array, element)
  qsizetype from = 0;
  for (std::size_t a = 0; a < arrays->size(); ++a) {
    const TopArray& array = (*arrays)[a];
    skeleton.append(bytes.constData() + from, array.open + 1 - from);
    from = array.close;
    for (std::size_t e = 0; e < array.items.size(); ++e) pieces.emplace_back(a, e);
  }
  // One piece gains nothing and would copy it (a run of 10^6 evaluations is 200 MB).
  if (pieces.size() < 2) return std::nullopt;
  skeleton.append(bytes.constData() + from, bytes.size() - from);
  QJsonParseError parse;
  const QJsonDocument document = QJsonDocument::fromJson(skeleton, &parse);
  if (parse.error != QJsonParseError::NoError || !document.isObject() ||
      firstDuplicateKey(skeleton))
    return std::nullopt;
  QJsonObject top = document.object();
  for (const TopArray& array : *arrays)
    if (!top.value(array.key).isArray() || !top.value(array.key).toArray().isEmpty())
      return std::nullopt;
  std::vector<QJsonValue> values(pieces.size());
  std::vector<std::optional<QString>> repeated(pieces.size());
  std::atomic<bool> invalid{false};
  forEachIndex(pieces.size(), 64, [&](std::size_t p) {
    const std::pair<qsizetype, qsizetype> span = (*arrays)[pieces[p].first].items[pieces[p].second];
    const std::optional<QJsonValue> value = parseElement(bytes.constData(), span);
    if (!value) {
      invalid = true;
      return;
    }
    values[p] = *value;
    repeated[p] = firstDuplicateKey(
        QByteArray::fromRawData(bytes.constData() + span.first, span.second - span.first));
  });
  if (invalid) return std::nullopt;
  for (std::size_t p = 0; p < pieces.size(); ++p)
    if (repeated[p]) {
      const QString inner = *repeated[p];
      throw duplicateKeyError(
          path,
          QStringLiteral("%1[%2]%3%4")
              .arg((*arrays)[pieces[p].first].key)
              .arg(pieces[p].second)
              .arg(inner.startsWith(QLatin1Char('[')) ? QString() : QStringLiteral("."), inner));
    }
  std::size_t p = 0;
  for (const TopArray& array : *arrays) {
    QJsonArray items;
    for (std::size_t e = 0; e < array.items.size(); ++e) items.append(values[p++]);
    top.insert(array.key, items);
  }
  return top;
}

QJsonObject parseWhole(const QByteArray& bytes, const QString& path) {
  QJsonParseError parse;
  const QJsonDocument document = QJsonDocument::fromJson(bytes, &parse);
  if (parse.error != QJsonParseError::NoError)
    throw fileError(path, QStringLiteral("not valid JSON at offset %1 (%2)")
                              .arg(parse.offset)
                              .arg(parse.errorString()));
  if (!document.isObject())
    throw fileError(path, QStringLiteral("expected a JSON object at the top level"));
  // Qt keeps the last of two equal keys without a word: a file that says a thing twice, maybe
  // differently, is refused rather than half believed.
  if (const auto key = firstDuplicateKey(bytes)) throw duplicateKeyError(path, *key);
  return document.object();
}

}  // namespace

QJsonObject parseJsonObject(const QByteArray& bytes, const QString& path, qsizetype piecewiseFrom) {
  if (bytes.size() >= piecewiseFrom)
    if (std::optional<QJsonObject> object = parseInPieces(bytes, path)) return *std::move(object);
  return parseWhole(bytes, path);
}

}  // namespace epsilon::ui
