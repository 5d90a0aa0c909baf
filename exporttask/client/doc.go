// Package client is the Go client of the export task API: [New] takes the
// server's base URL and an API key, and a [Client] creates, reads, lists,
// aborts and waits for tasks ([Client.Create], [Client.Get], [Client.List],
// [Client.Abort], [Client.Wait]), and lists a task's webhook deliveries
// and asks for one again ([Client.Deliveries], [Client.Redeliver]).
// [Client.Download] and [Client.DownloadFile] fetch a completed task's
// files with the client's key, resume a cut connection with Range and
// If-Range, and check each file's size and SHA-256 against the task.
//
// Requests and tasks are the types of package exporttask; an error answer
// comes back as a *[exporttask.Problem] (find it with errors.As). The
// package links nothing of the server: a program that only calls the API
// pulls in net/http and the domain package, no viewer, no database driver.
//
// Responses are decoded from the body as it arrives; a list page is read
// one task at a time, each at most [MaxItemBytes], so pages of any size
// are accepted. [Client.Wait] polls every [DefaultWaitInterval] unless told
// otherwise.
//
// In tests, package exporttasktest starts a real server and hands out a
// ready Client.
package client
