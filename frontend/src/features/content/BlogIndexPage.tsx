import { Link } from 'react-router-dom';
import { PostDate } from './components/PostDate';
import { PostPicture } from './components/PostPicture';
import { POSTS } from './posts';
import './content.css';

export default function BlogIndexPage() {
  return (
    <div className="content-page content-page--wide">
      <header className="content-header">
        <h1>Blog</h1>
        <p className="content-lead">Walk-throughs, tips and honest limits for getting text and numbers out of video and photos.</p>
      </header>
      <ul className="blog-grid">
        {POSTS.map((post) => (
          <li key={post.slug} className="blog-card">
            <PostPicture kind={post.picture} alt={post.pictureAlt} />
            <div className="blog-card__text">
              <h2>
                <Link to={`/blog/${post.slug}`}>{post.title}</Link>
              </h2>
              <p>{post.subtitle}</p>
              <p className="content-muted">
                <PostDate date={post.date} />
              </p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
