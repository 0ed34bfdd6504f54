// `import SwiftData` on platforms without Apple's SwiftData: this module re-exports
// OpenSwiftData, so SwiftData code, module-qualified names (`SwiftData.PersistentModel`)
// included, builds unchanged. On Apple platforms, import OpenSwiftData instead.
@_exported import OpenSwiftData
// Files that got Foundation through `import SwiftUI` beside `import SwiftData` on Apple
// platforms still find `Date`, `URL` and `UUID` here.
@_exported import Foundation
