// The "real-world" page of @kitajs/html's benchmark, for bench/render: a layout, a head of 17 tags, a header, 1,000
// purchase cards, a profile, a sidebar and two paragraphs; 1,000 purchases make about 170 KB of HTML. Rendered by
// whichever JSX runtime the module is loaded with (run.ts loads it twice: pagetree's and kitajs's).
//
// Copied from https://github.com/kitajs/html, benchmarks/kitajs/index.tsx and generatePurchases() in
// benchmarks/runner/lib/util.js, at commit e7ca4b69fb9adc2f83b2ee0708bdf412fa459d25; the markup is unchanged. Changed:
// prop types added (the original is untyped; this repository compiles strict), Prettier's formatting, and the
// `string` check in realWorldPage (kitajs's RealWorldPage returns the element as it is).
//
// MIT License. Copyright (c) 2023-present Kita. Permission is hereby granted, free of charge, to any person obtaining
// a copy of this software and associated documentation files (the "Software"), to deal in the Software without
// restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense,
// and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to
// the following conditions: The above copyright notice and this permission notice shall be included in all copies
// or substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
// OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
// NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
// SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

/** One purchase of the page. */
export interface Purchase {
  name: string;
  price: number;
  quantity: number;
}

/** kitajs's input: `Purchase number 1`… with price 2i and quantity 5i (1,000 in its benchmark). */
export function generatePurchases(amount = 1000): Purchase[] {
  return Array.from({ length: amount }, (_, i) => ({
    name: `Purchase number ${i + 1}`,
    price: i * 2,
    quantity: i * 5,
  }));
}

function Purchase({ name, price, quantity }: Purchase) {
  return (
    <div class="purchase purchase-card">
      <div class="purchase-name" safe>
        {name}
      </div>
      <div class="purchase-price">{price}</div>
      <div class="purchase-quantity">{quantity}</div>
    </div>
  );
}

function Layout({ children, head }: { children: JSX.Element; head: JSX.Element }) {
  return (
    <html lang="en">
      <head>{head}</head>
      <body>{children}</body>
    </html>
  );
}

function Head({ title }: { title: string }) {
  return (
    <div>
      <title safe>{title}</title>
      <meta name="description" content="A description" />
      <meta name="keywords" content="some, keywords" />
      <meta name="author" content="Some Author" />
      <meta name="viewport" content="width=device-width, initial-scale=1.0" />
      <link rel="stylesheet" href="styles.css" />
      <script src="script.js"></script>
      <meta name="twitter:card" content="summary" />
      <meta name="twitter:site" content="@site" />
      <meta name="twitter:title" content="Title" />
      <meta name="twitter:description" content="A description" />
      <meta name="twitter:creator" content="@creator" />
      <meta name="twitter:image" content="image.jpg" />
      <meta content="Title" />
      <meta content="website" />
      <script src="https://cdn.jsdelivr.net/npm/axios-cache-interceptor@1/dev/index.bundle.js" />
      <script src="https://cdn.jsdelivr.net/npm/axios-cache-interceptor@1/dist/index.bundle.js"></script>
    </div>
  );
}

function Header({ name }: { name: string }) {
  return (
    <header class="header">
      <h1 class="header-title" safe>
        Hello {name}
      </h1>
      <nav class="header-nav">
        <ul class="header-ul">
          <li class="header-item">
            <a href="/">Home</a>
          </li>
          <li>
            <a href="/about">About</a>
          </li>
        </ul>
      </nav>
    </header>
  );
}

function Footer({ name }: { name: string }) {
  return (
    <footer class="footer">
      <p class="footer-year" safe>
        © {name}
      </p>

      <p class="footer">
        <a href="/terms">Terms</a>
        <a href="/privacy">Privacy</a>
      </p>
    </footer>
  );
}

function Main({ children, name }: { children: JSX.Element[]; name: string }) {
  return (
    <div>
      <Header name={name} />
      <main class="main-content">{children}</main>
      <Footer name={name} />
    </div>
  );
}

function UserProfile({ name }: { name: string }) {
  return (
    <section class="user-profile">
      <h2 class="user-profile title">User Profile</h2>
      <p class="user-profile name" safe>
        Name: {name}
      </p>
      <p class="user-profile info">Email: example@example.com</p>
      <p class="user-profile info">Address: 123 Main St, City, Country</p>
      <p class="user-profile info">Phone: 123-456-7890</p>
    </section>
  );
}

function Sidebar({ purchases }: { purchases: Purchase[] }) {
  return (
    <aside class="sidebar">
      <h2 class="purchase title">Recent Purchases</h2>
      <ul class="purchase list">
        {purchases.slice(0, 3).map((purchase) => (
          <li class="purchase-preview" safe>
            {purchase.name} - ${purchase.price.toFixed(2)}
          </li>
        ))}
      </ul>
    </aside>
  );
}

function PageContent() {
  return (
    <div class="page-content">
      <h2 class="title mb-4 h2">Welcome to our store</h2>
      <p class="p text mb-0">
        Lorem ipsum dolor sit amet, consectetur adipiscing elit. Nulla venenatis magna id dolor ultricies, eget pretium
        ligula sodales. Cras sit amet turpis nec lacus blandit placerat. Sed vestibulum est sit amet enim ultrices
        rutrum. Vivamus in nulla vel nunc interdum vehicula.
      </p>
      <p class="p text mb-0">
        Pellentesque efficitur tellus id velit vehicula laoreet. Proin et neque ac dolor hendrerit elementum. Fusce
        auctor metus non ligula tincidunt, id gravida odio sollicitudin.
      </p>
    </div>
  );
}

/** The page for `name` and `purchases`, as kitajs's benchmark calls it (`RealWorldPage('Benchmark', purchases)`). */
export function realWorldPage(name: string, purchases: Purchase[]): string {
  const html = (
    <Layout head={<Head title="Real World Example" />}>
      <Main name={name}>
        <h2>Purchases</h2>

        <div class="purchases">
          {purchases.map((purchase) => (
            <Purchase name={purchase.name} price={purchase.price} quantity={purchase.quantity} />
          ))}
        </div>

        <UserProfile name={name} />
        <Sidebar purchases={purchases} />
        <PageContent />
      </Main>
    </Layout>
  );
  if (typeof html !== 'string') throw new TypeError('bench/render: the page rendered a Promise');
  return html;
}
