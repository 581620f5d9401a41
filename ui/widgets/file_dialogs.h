// File dialogs that start where the same kind of dialog was last accepted: one remembered
// folder per purpose (sessions, data folders, exported histories, exported charts) in
// QSettings, so a lecturer's folders survive a restart. Every file dialog of the app goes
// through these functions.
#pragma once

#include <QString>

class QWidget;

namespace epsilon::ui {

enum class FolderPurpose { Sessions, DataFolders, Histories, Charts };

// The QSettings key a purpose's folder is kept under ("folders/sessions", ...).
QString folderKey(FolderPurpose purpose);
// The folder remembered for `purpose`, or the home folder when none is remembered or the
// remembered one no longer exists.
QString lastFolder(FolderPurpose purpose);
// Remembers the folder of `path`: a file's folder, or `path` itself when it is a folder.
void rememberFolder(FolderPurpose purpose, const QString& path);

// QFileDialog's static dialogs, starting in lastFolder(purpose) and remembering the folder
// of what was accepted. `fileName` may be a bare name (placed in the remembered folder) or a
// path (kept as it is). An empty result means the dialog was cancelled.
QString askOpenFile(QWidget* parent, FolderPurpose purpose, const QString& caption,
                    const QString& filter);
QString askSaveFile(QWidget* parent, FolderPurpose purpose, const QString& caption,
                    const QString& fileName, const QString& filter);
QString askFolder(QWidget* parent, FolderPurpose purpose, const QString& caption);

}  // namespace epsilon::ui
