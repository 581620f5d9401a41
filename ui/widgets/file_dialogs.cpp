#include "ui/widgets/file_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace epsilon::ui {

QString folderKey(FolderPurpose purpose) {
  switch (purpose) {
    case FolderPurpose::Sessions:
      return QStringLiteral("folders/sessions");
    case FolderPurpose::DataFolders:
      return QStringLiteral("folders/data");
    case FolderPurpose::Histories:
      return QStringLiteral("folders/histories");
    case FolderPurpose::Charts:
      return QStringLiteral("folders/charts");
  }
  return QStringLiteral("folders/other");
}

QString lastFolder(FolderPurpose purpose) {
  const QString folder = QSettings().value(folderKey(purpose)).toString();
  return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void rememberFolder(FolderPurpose purpose, const QString& path) {
  if (path.isEmpty()) return;
  const QFileInfo info(path);
  QSettings().setValue(folderKey(purpose),
                       info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString askOpenFile(QWidget* parent, FolderPurpose purpose, const QString& caption,
                    const QString& filter) {
  const QString path = QFileDialog::getOpenFileName(parent, caption, lastFolder(purpose), filter);
  rememberFolder(purpose, path);
  return path;
}

QString askSaveFile(QWidget* parent, FolderPurpose purpose, const QString& caption,
                    const QString& fileName, const QString& filter) {
  const QString start =
      QFileInfo(fileName).isAbsolute() ? fileName : QDir(lastFolder(purpose)).filePath(fileName);
  const QString path = QFileDialog::getSaveFileName(parent, caption, start, filter);
  rememberFolder(purpose, path);
  return path;
}

QString askFolder(QWidget* parent, FolderPurpose purpose, const QString& caption) {
  const QString path = QFileDialog::getExistingDirectory(parent, caption, lastFolder(purpose));
  rememberFolder(purpose, path);
  return path;
}

}  // namespace epsilon::ui
